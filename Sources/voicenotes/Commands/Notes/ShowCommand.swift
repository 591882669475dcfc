import Foundation
import VoiceNotes

/// `voicenotes show`: one note in full.
struct ShowCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "show", abstract: "Show a note: summary, tags, people, action items and transcript.",
    arguments: [ArgumentSpec(name: "id", help: "The note's id, or a unique prefix of it.")],
    options: [.flag("json", help: "Print the note as JSON."), LibraryOption.spec])

  let id: String
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals[0]
    json = input.flag("json")
    library = LibraryOption.url(from: input)
  }

  func run() async throws {
    let note = try await LibraryOption.open(library).note(id)
    print(json ? try NoteFormatting.json(note) : NoteFormatting.markdown(note), terminator: json ? "\n" : "")
  }
}
