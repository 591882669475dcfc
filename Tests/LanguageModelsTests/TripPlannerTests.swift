import Foundation
import TestSupport
import Testing

/// Seed 004's trip planner, end to end with the default model.
@Suite("TripPlanner example", .serialized)
struct TripPlannerTests {
  @Test("streams a three-day itinerary that names places its tool returned, with readable labels")
  func joshuaTree() throws {
    let program = Fixtures.root.appendingPathComponent(".build/debug/TripPlanner")
    let result = try Program.run([program.path, "Joshua Tree"])
    #expect(result.status == 0, "\(result.standardError)")
    let lookups = result.standardError.split(separator: "\n").filter { $0.contains("looked up") }
    #expect(!lookups.isEmpty, "the model never called the points-of-interest tool")
    // Names the tool returned, e.g. "looked up campground places in Joshua Tree: Jumbo Rocks Campground, ..."
    let returned = lookups.flatMap { line in
      line.split(separator: ":", maxSplits: 1).last.map {
        $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      }
        ?? []
    }
    #expect(returned.contains { result.standardOutput.contains($0) }, "the itinerary names none of \(returned)")
    let activities = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("  • ") }
    #expect(activities.count == 9, "three days of three activities:\n\(result.standardOutput)")
    #expect(!activities.contains { $0.contains("AndDining") || $0.contains("AndLodging") }, "labels a person reads")
  }

  @Test("--help, a bad option, an unknown landmark and an unavailable model each explain themselves")
  func unavailable() throws {
    let program = Fixtures.root.appendingPathComponent(".build/debug/TripPlanner")
    let unknown = try Program.run([program.path, "Atlantis"])
    #expect(unknown.status == 1)
    #expect(unknown.standardError.contains("choose one of: Joshua Tree"))
    let notReady = try Program.run(
      [program.path, "Yosemite"], environment: ["VOICENOTES_LANGUAGE_MODEL": "modelNotReady"])
    #expect(notReady.status == 1)
    #expect(notReady.standardError.contains("voicenotes models install"))
    let ineligible = try Program.run(
      [program.path, "Yosemite"], environment: ["VOICENOTES_LANGUAGE_MODEL": "deviceNotEligible"])
    #expect(ineligible.status == 1)
    #expect(ineligible.standardOutput.contains("granite valley"))
    let off = try Program.run([program.path, "Yosemite"], environment: ["VOICENOTES_LANGUAGE_MODEL": "off"])
    #expect(off.status == 1)
    #expect(off.standardError.contains("turned off"))
    let help = try Program.run([program.path, "--help"])
    #expect(help.status == 0)
    #expect(help.standardOutput.hasPrefix("Usage: TripPlanner [LANDMARK]"))
    #expect(help.standardOutput.contains("Exit status"))
    let bad = try Program.run([program.path, "--days", "4"])
    #expect(bad.status == 2)
    #expect(bad.standardError.contains("see TripPlanner --help"))
  }
}
