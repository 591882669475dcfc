import Foundation
import VoiceNotes

/// `voicenotes delete`: remove a note and its audio from the library.
struct DeleteCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "delete", abstract: "Delete a note and its copy of the audio (asks first).",
    arguments: [ArgumentSpec(name: "id", help: "The note's id, or a unique prefix.")],
    options: [.flag("yes", short: "y", help: "Do not ask."), LibraryOption.spec])

  let id: String
  let confirmed: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals[0]
    confirmed = input.flag("yes")
    library = LibraryOption.url(from: input)
  }

  func run() async throws {
    let app = try await LibraryOption.open(library)
    let note = try await app.note(id)
    if !confirmed {
      print("Delete \"\(note.title)\" (\(note.id.prefix(8))) and its audio? [y/N] ", terminator: "")
      fflush(nil)
      guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
        print("Kept.")
        return
      }
    }
    _ = try await app.delete(note.id)
    print("Deleted \(note.id.prefix(8)).")
  }
}
