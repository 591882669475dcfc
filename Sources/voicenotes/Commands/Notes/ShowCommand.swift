import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes show`: one note in full.
struct ShowCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "show", abstract: "Show a note: summary, tags, people, action items and transcript.",
    arguments: [ArgumentSpec(name: "id", help: "The note's id, or a unique prefix of it.")],
    options: [OutputOptions.json, OutputOptions.words, LibraryOption.option],
    examples: [
      Example("voicenotes show 3f2a", "The note whose id starts with 3f2a, as Markdown."),
      Example("voicenotes show 3f2a --json --words", "The note as JSON, with each word's timing."),
    ])

  let id: String
  let json: Bool
  let words: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals[0]
    json = input.isSet(OutputOptions.json)
    words = input.isSet(OutputOptions.words)
    library = try LibraryOption.url(from: input)
    if words && !json { throw input.error("--words applies to --json output; add --json") }
  }

  func run() async throws {
    let note = try await LibraryOption.openExisting(library).note(id)
    if json {
      try OutputOptions.printJSON(NoteJSON(note, detail: words ? .words : .segments))
    } else {
      print(NoteFormatting.markdown(note), terminator: "")
    }
  }
}
