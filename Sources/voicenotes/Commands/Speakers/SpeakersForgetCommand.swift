import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes speakers forget`: stop remembering a voice.
struct SpeakersForgetCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "forget", abstract: "Forget a named speaker's voice; its notes read \"Speaker N\" again.",
    arguments: [ArgumentSpec(name: "name", help: "The speaker's name (case does not matter).")],
    options: [OutputOptions.json, LibraryOption.option],
    examples: [Example("voicenotes speakers forget Priya", "New notes are no longer labelled Priya.")])

  let name: String
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    name = input.positionals[0]
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let (voice, notes) = try await LibraryOption.openExisting(library).forgetVoice(name)
    if json {
      struct Forgotten: Encodable {
        var forgotten: String
        var notes: Int
      }
      try OutputOptions.printJSON(Forgotten(forgotten: voice.name, notes: notes))
    } else {
      print(
        "forgot \(NoteFormatting.terminalText(voice.name)) (\(notes) note\(notes == 1 ? "" : "s") now read \"Speaker N\")"
      )
    }
  }
}
