import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes speakers rename`: change a named speaker's name everywhere.
struct SpeakersRenameCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "rename", abstract: "Rename a named speaker in every note.",
    arguments: [
      ArgumentSpec(name: "name", help: "The speaker's name now (case does not matter)."),
      ArgumentSpec(name: "new-name", help: "The new name."),
    ],
    options: [OutputOptions.json, LibraryOption.option],
    examples: [Example("voicenotes speakers rename Pria Priya", "Fix the spelling of a name.")])

  let name: String
  let newName: String
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    name = input.positionals[0]
    newName = input.positionals[1]
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let voice = try await LibraryOption.openExisting(library).renameVoice(name, to: newName)
    if json {
      try OutputOptions.printJSON(["name": voice.name, "id": voice.id])
    } else {
      print("renamed \(NoteFormatting.terminalText(name)) to \(NoteFormatting.terminalText(voice.name))")
    }
  }
}
