import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes list`: every note, newest first.
struct ListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List the notes, newest first.",
    options: [OutputOptions.json, LibraryOption.option],
    examples: [
      Example("voicenotes list", "Every note: id, date, length, state and title."),
      Example("voicenotes list --json | jq -r '.[] | select(.state == \"failed\") | .id'", "The ids of failed notes."),
    ])

  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let app = try await LibraryOption.openExisting(library)
    // Page by page, without transcripts: quick however large the library.
    var page = try await app.page(limit: 500)
    if json {
      var notes = page.notes
      while let next = page.next {
        page = try await app.page(after: next, limit: 500)
        notes += page.notes
      }
      try OutputOptions.printJSON(notes.map { NoteJSON($0, detail: .overview) })
      return
    }
    if page.notes.isEmpty {
      print("No notes yet. " + LibraryOption.addNotesHint)
      return
    }
    print(TerminalStyle.apply(.bold, NoteFormatting.listHeader))
    while true {
      for note in page.notes {
        print(
          NoteFormatting.shortID(note.id) + "  "
            + TerminalStyle.apply(
              .dim, "\(NoteFormatting.date(note.createdAt))  \(NoteFormatting.duration(note.duration))")
            + "  " + NoteFormatting.styledState(note.processing) + "  " + NoteFormatting.terminalText(note.title))
      }
      guard let next = page.next else { break }
      page = try await app.page(after: next, limit: 500)
    }
  }
}
