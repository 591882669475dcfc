import Foundation
import TestSupport
import Testing

/// Seed 004's trip planner, end to end with the default model.
@Suite("TripPlanner example", .serialized)
struct TripPlannerTests {
  /// One itinerary, planned through llama-server and drawn in a terminal: the server is chosen by
  /// configuration alone, and the screen is what a person sees. (The local engine plans seed 004's
  /// itinerary in PortsTests.)
  @Test(
    "through llama-server in a 120x60 terminal: three days of three activities, the tool's places, readable labels, the header once"
  )
  func joshuaTree() async throws {
    let server = try await ReferenceServer.start(
      .llama, model: Fixtures.models.appendingPathComponent("qwen-1.5b.gguf"),
      arguments: ["-c", "4096", "--parallel", "1"])
    defer { server.stop() }
    let folder = Fixtures.temporaryFolder("trip-tmux")
    defer { try? FileManager.default.removeItem(at: folder) }
    let program = Fixtures.product("TripPlanner")
    let pane = try TerminalPane(columns: 120, rows: 60, folder: folder)
    defer { pane.close() }
    let url = server.baseURL.absoluteString
    let run = try pane.run("VOICENOTES_LANGUAGE_MODEL_SERVER='\(url)' '\(program.path)' 'Joshua Tree'", timeout: 480)
    #expect(run.status == 0, "\(run.standardError)\n\(server.logTail())")
    #expect(
      run.standardError.contains("with \(url.trimmingCharacters(in: .init(charactersIn: "/")))"), "\(run.standardError)"
    )
    let lookups = run.standardError.split(separator: "\n").filter { $0.contains("looked up") }
    #expect(!lookups.isEmpty, "the model never called the points-of-interest tool")
    // Names the tool returned, e.g. "looked up campground places in Joshua Tree: Jumbo Rocks Campground, ..."
    let returned = lookups.flatMap { line in
      line.split(separator: ":", maxSplits: 1).last.map {
        $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      }
        ?? []
    }
    let screen = run.scrollback
    #expect(returned.contains { screen.contains($0) }, "the itinerary names none of \(returned)")
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let activities = lines.filter { $0.hasPrefix("  • ") }
    #expect(activities.count == 9, "three days of three activities:\n\(screen)")
    #expect(!activities.contains { $0.contains("AndDining") || $0.contains("AndLodging") }, "labels a person reads")
    // A redraw that leaves copies shows as a line repeated, or as a line followed by a longer
    // version of itself (the partial line, then more of it).
    let written = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    let header = try #require(written.first, "nothing on the screen")
    let copies = written.filter { $0 == header }.count
    print("TripPlanner in a 120x60 tmux pane: header \"\(header)\" \(copies) time(s), \(lines.count) rows")
    #expect(copies == 1, "the itinerary header is in the scrollback \(copies) times:\n\(screen)")
    #expect(Set(written).count == written.count, "a line is in the scrollback twice:\n\(screen)")
    // A leftover looks like the line that follows it (a partial title is bold like the whole
    // one); a description that happens to begin with the title is plain under a bold title.
    let styled = run.styledScrollback.split(separator: "\n").map { line in
      (text: line.replacing(/\x1B\[[0-9;]*m/, with: ""), style: line.matches(of: /\x1B\[[0-9;]*m/).map(\.0).joined())
    }.filter { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
    let leftovers = zip(styled, styled.dropFirst()).filter { $1.text.hasPrefix($0.text) && $1.style == $0.style }
    #expect(!styled.isEmpty)
    #expect(leftovers.isEmpty, "partial lines left behind: \(leftovers.map(\.0.text))")
  }

  @Test("--help, a bad option, an unknown landmark and an unavailable model each explain themselves")
  func unavailable() throws {
    let program = Fixtures.product("TripPlanner")
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
