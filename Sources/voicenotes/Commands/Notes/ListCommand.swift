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
    let app = try await LibraryOption.open(library)
    if json {
      print(try NoteFormatting.json(try await app.store.allNotes()))
      return
    }
    // Page by page, without transcripts: quick however large the library.
    var page = try await app.page(limit: 500)
    if page.notes.isEmpty {
      print("No notes yet. Add some with `voicenotes import FILE...` or `voicenotes samples restore`.")
      return
    }
    while true {
      for note in page.notes {
        print(
          "\(note.id.prefix(8))  \(NoteFormatting.date(note.createdAt))  \(NoteFormatting.duration(note.duration))  "
            + "\(NoteFormatting.state(note.processing))  \(note.title)")
      }
      guard let next = page.next else { break }
      page = try await app.page(after: next, limit: 500)
    }
  }
}
