import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes speakers unname`: undo a wrong label on a note's speaker.
struct SpeakersUnnameCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "unname", abstract: "Say a speaker of a note is nobody named: it reads \"Speaker N\" again.",
    arguments: [
      ArgumentSpec(name: "id", help: "The note's id, or a unique prefix."),
      ArgumentSpec(name: "speaker", help: "The speaker's number, as in \"Speaker 2\"."),
    ],
    options: [OutputOptions.json, LibraryOption.option],
    examples: [Example("voicenotes speakers unname 3f2a 2", "Speaker 2 of note 3f2a was labelled wrongly.")])

  let id: String
  let number: Int
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals[0]
    number = try SpeakersCommand.number(input.positionals[1], input: input)
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let note = try await LibraryOption.openExisting(library).unnameSpeaker(id, speaker: number)
    if json {
      try OutputOptions.printJSON(NoteJSON(note, detail: .overview))
    } else {
      SpeakersCommand.printSpeakers(of: note)
    }
  }
}
