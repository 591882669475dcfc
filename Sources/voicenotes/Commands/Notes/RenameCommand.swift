import Foundation
import VoiceNotes

/// `voicenotes rename`: give a note a title of the person's choosing.
struct RenameCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "rename", abstract: "Give a note a new title (analysis will not change it afterwards).",
    arguments: [
      ArgumentSpec(name: "id", help: "The note's id, or a unique prefix."),
      ArgumentSpec(name: "title", help: "The new title.", isRepeating: true),
    ],
    options: [LibraryOption.spec])

  let id: String
  let title: String
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals[0]
    title = input.positionals.dropFirst().joined(separator: " ").trimmingCharacters(in: .whitespaces)
    library = LibraryOption.url(from: input)
    if title.isEmpty { throw input.error("the new title is empty") }
  }

  func run() async throws {
    let note = try await LibraryOption.open(library).rename(id, to: title)
    print("\(note.id.prefix(8))  \(note.title)")
  }
}
