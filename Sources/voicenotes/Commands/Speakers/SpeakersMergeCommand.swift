import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes speakers merge`: two names that are one person.
struct SpeakersMergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "merge", abstract: "Merge a named speaker into another: one person, one name, one voice.",
    discussion: "Where a note has both, the first one's speaker is left unnamed.",
    arguments: [
      ArgumentSpec(name: "name", help: "The name to merge away."),
      ArgumentSpec(name: "into", help: "The name to keep."),
    ],
    options: [OutputOptions.json, LibraryOption.option],
    examples: [Example("voicenotes speakers merge \"P. Okonkwo\" Priya", "Both were Priya; keep \"Priya\".")])

  let name: String
  let target: String
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    name = input.positionals[0]
    target = input.positionals[1]
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let voice = try await LibraryOption.openExisting(library).mergeVoice(name, into: target)
    if json {
      struct Merged: Encodable {
        var id: String
        var name: String
        var notes: Int
      }
      try OutputOptions.printJSON(Merged(id: voice.id, name: voice.name, notes: voice.noteCount))
    } else {
      print(
        "merged \(NoteFormatting.terminalText(name)) into \(NoteFormatting.terminalText(voice.name)) "
          + "(\(voice.noteCount) note\(voice.noteCount == 1 ? "" : "s"))")
    }
  }
}
