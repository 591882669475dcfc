import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes doctor`: check the library's database and audio folder, and mend what can be
/// mended without losing anything.
struct DoctorCommand: ParsableCommand {
  static let repair = Flag(
    "repair", help: "Mend what can be mended: recordings without a note become notes again; nothing is deleted.")

  static let configuration = CommandConfiguration(
    name: "doctor", abstract: "Check the library (database, recordings) and safely repair it.",
    discussion:
      "Checks SQLite's integrity and the search index, that every note has its recording and every recording a note. With --repair, a recording without a note becomes a note again, and an empty database beside recordings is kept under a new name while the recordings are made into notes; no recording is ever deleted. Exit status 1 when something is still wrong.",
    options: [repair, OutputOptions.json, LibraryOption.option],
    examples: [
      Example("voicenotes doctor", "Report what is wrong, change nothing."),
      Example("voicenotes doctor --repair && voicenotes resume", "Mend, then transcribe the notes made again."),
    ])

  let repair: Bool
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    repair = input.isSet(Self.repair)
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    try LibraryOption.requireExisting(library)
    let result = try await LibraryCheck.check(try LibraryOption.configuration(library), repair: repair)
    if json {
      try OutputOptions.printJSON(Report(result))
    } else {
      for problem in result.problems {
        let mark = problem.repaired ? "repaired" : "problem"
        print("\(mark): \(NoteFormatting.terminalText(problem.detail))")
      }
      let state = result.isHealthy ? "healthy" : "needs attention"
      print("\(result.notes) notes, \(result.recordings) recordings: \(state)")
      if let speakers = Library.speakersExplanation(try LibraryOption.configuration(library)) {
        print("note: \(speakers)")
      }
    }
    if !result.isHealthy {
      throw CommandFailure(message: "the library needs attention (see above)", alreadyReported: true)
    }
  }

  /// The JSON shape of a check (docs/cli.md).
  private struct Report: Encodable {
    struct Problem: Encodable {
      var kind: String
      var subject: String
      var detail: String
      var repaired: Bool
    }

    var healthy: Bool
    var notes: Int
    var recordings: Int
    var problems: [Problem]

    init(_ check: LibraryCheck) {
      healthy = check.isHealthy
      notes = check.notes
      recordings = check.recordings
      problems = check.problems.map {
        Problem(kind: $0.kind.rawValue, subject: $0.subject, detail: $0.detail, repaired: $0.repaired)
      }
    }
  }
}
