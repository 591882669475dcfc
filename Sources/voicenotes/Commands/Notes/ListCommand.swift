import Foundation
import VoiceNotes

/// `voicenotes list`: every note, newest first.
struct ListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List the notes, newest first.",
    options: [.flag("json", help: "Print the notes as JSON."), LibraryOption.spec])

  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    json = input.flag("json")
    library = LibraryOption.url(from: input)
  }

  func run() async throws {
    let notes = try await LibraryOption.open(library).store.allNotes()
    if json {
      print(try NoteFormatting.json(notes))
      return
    }
    if notes.isEmpty {
      print("No notes yet. Add some with `voicenotes import FILE...` or `voicenotes samples restore`.")
      return
    }
    for note in notes {
      print(
        "\(note.id.prefix(8))  \(NoteFormatting.date(note.createdAt))  \(NoteFormatting.duration(note.duration))  "
          + "\(NoteFormatting.state(note.processing))  \(note.title)")
    }
  }
}
