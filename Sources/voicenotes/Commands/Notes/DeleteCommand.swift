import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes delete`: remove notes and their audio from the library.
struct DeleteCommand: ParsableCommand {
  static let yes = Flag("yes", short: "y", help: "Do not ask (needed when standard input is not a terminal).")

  static let configuration = CommandConfiguration(
    name: "delete", abstract: "Delete notes and their copies of the audio (asks first).",
    discussion: "Every id is checked before anything is deleted: one unknown id deletes nothing.",
    arguments: [ArgumentSpec(name: "id", help: "Note ids, or unique prefixes.", isRepeating: true)],
    options: [yes, OutputOptions.json, LibraryOption.option],
    examples: [
      Example("voicenotes delete 3f2a", "Delete one note, after asking."),
      Example("voicenotes delete --yes 3f2a 81c0", "Delete two notes without asking (for scripts)."),
    ])

  let ids: [String]
  let confirmed: Bool
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    ids = input.positionals
    confirmed = input.isSet(Self.yes)
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
    if !confirmed && isatty(STDIN_FILENO) == 0 {
      throw input.error("standard input is not a terminal, so there is no one to ask; pass --yes to delete")
    }
  }

  func run() async throws {
    let app = try await LibraryOption.openExisting(library)
    let notes = try await LibraryOption.notes(ids, in: app)
    if !confirmed {
      let what =
        notes.count == 1
        ? "\"\(NoteFormatting.terminalText(notes[0].title))\" (\(notes[0].id.prefix(8))) and its audio"
        : "\(notes.count) notes (\(notes.map { String($0.id.prefix(8)) }.joined(separator: ", "))) and their audio"
      FileHandle.standardError.write(Data("Delete \(what)? [y/N] ".utf8))
      guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
        throw CommandFailure(message: "Kept; nothing was deleted.", isNotice: true)
      }
    }
    for note in notes { _ = try await app.delete(note.id) }
    if json {
      struct Deleted: Encodable {
        var id: String
        var title: String
      }
      try OutputOptions.printJSON(notes.map { Deleted(id: $0.id, title: $0.title) })
    } else {
      for note in notes { print("deleted \(note.id.prefix(8))  \(NoteFormatting.terminalText(note.title))") }
    }
  }
}
