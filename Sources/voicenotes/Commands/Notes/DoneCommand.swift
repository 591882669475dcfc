import Foundation
import VoiceNotes

/// `voicenotes done`: tick an action item.
struct DoneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "done", abstract: "Mark an action item as done.",
    arguments: [ArgumentSpec(name: "id", help: "The action item's id (as `tasks` shows it), or a unique prefix.")],
    options: [LibraryOption.spec])

  let id: String
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals[0]
    library = LibraryOption.url(from: input)
  }

  func run() async throws { try await Self.set(true, id: id, library: library) }

  static func set(_ completed: Bool, id: String, library: URL) async throws {
    let (note, item) = try await LibraryOption.open(library).setCompleted(completed, actionItem: id)
    print("[\(item.isCompleted ? "x" : " ")] \(item.task)  (\(note.title))")
  }
}
