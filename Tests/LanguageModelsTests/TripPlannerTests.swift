import Foundation
import TestSupport
import Testing

/// Seed 004's trip planner, end to end with the default model.
@Suite("TripPlanner example", .serialized)
struct TripPlannerTests {
  @Test("streams a three-day itinerary that names places its tool returned")
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
    let days = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("  • ") }
    #expect(days.count == 9, "three days of three activities:\n\(result.standardOutput)")
  }

  @Test("an unknown landmark and an unavailable model each explain themselves")
  func unavailable() throws {
    let program = Fixtures.root.appendingPathComponent(".build/debug/TripPlanner")
    let unknown = try Program.run([program.path, "Atlantis"])
    #expect(unknown.status == 1)
    #expect(unknown.standardError.contains("choose one of: Joshua Tree"))
    let notReady = try Program.run(
      [program.path, "Yosemite"], environment: ["VOICENOTES_LANGUAGE_MODEL": "modelNotReady"])
    #expect(notReady.status == 0)
    #expect(notReady.standardOutput.contains("voicenotes models install"))
    let ineligible = try Program.run(
      [program.path, "Yosemite"], environment: ["VOICENOTES_LANGUAGE_MODEL": "deviceNotEligible"])
    #expect(ineligible.standardOutput.contains("granite valley"))
  }
}
