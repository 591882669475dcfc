import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes speakers name`: say who a speaker of a note is.
struct SpeakersNameCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "name", abstract: "Say who a speaker of a note is; the voice is remembered under that name.",
    discussion:
      "Also corrects a wrong automatic label. The name's other speaker in the same note, if any, is left "
      + "unnamed. Run `voicenotes analyze NOTE` afterwards for action items that name the speaker.",
    arguments: [
      ArgumentSpec(name: "id", help: "The note's id, or a unique prefix."),
      ArgumentSpec(name: "speaker", help: "The speaker's number, as in \"Speaker 2\"."),
      ArgumentSpec(name: "name", help: "Who it is.", isRepeating: true),
    ],
    options: [OutputOptions.json, LibraryOption.option],
    examples: [Example("voicenotes speakers name 3f2a 2 Priya Okonkwo", "Speaker 2 of note 3f2a is Priya Okonkwo.")])

  let id: String
  let number: Int
  let name: String
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals[0]
    number = try SpeakersCommand.number(input.positionals[1], input: input)
    name = input.positionals.dropFirst(2).joined(separator: " ").trimmingCharacters(in: .whitespaces)
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
    if name.isEmpty { throw input.error("the name is empty") }
  }

  func run() async throws {
    let note = try await LibraryOption.openExisting(library).nameSpeaker(id, speaker: number, as: name)
    if json {
      try OutputOptions.printJSON(NoteJSON(note, detail: .overview))
    } else {
      SpeakersCommand.printSpeakers(of: note)
    }
  }
}
