import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes speakers list`: the named voices the library remembers.
struct SpeakersListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List the named speakers and in how many notes each speaks.",
    options: [OutputOptions.json, LibraryOption.option],
    examples: [Example("voicenotes speakers list --json", "The named speakers as JSON.")])

  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let voices = try await LibraryOption.openExisting(library).voices()
    if json {
      struct Entry: Encodable {
        var id: String
        var name: String
        var notes: Int
        var createdAt: Date
        var updatedAt: Date
      }
      try OutputOptions.printJSON(
        voices.map {
          Entry(id: $0.id, name: $0.name, notes: $0.noteCount, createdAt: $0.createdAt, updatedAt: $0.updatedAt)
        })
    } else if voices.isEmpty {
      ProgressReporter.write(
        "No speaker has a name yet. Name one with `voicenotes speakers name NOTE NUMBER NAME`.\n")
    } else {
      for voice in voices {
        print("\(NoteFormatting.terminalText(voice.name))  \(voice.noteCount) note\(voice.noteCount == 1 ? "" : "s")")
      }
    }
  }
}
