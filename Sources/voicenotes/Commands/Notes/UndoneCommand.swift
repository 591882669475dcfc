import Foundation
import VoiceNotes

/// `voicenotes undone`: reopen an action item.
struct UndoneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "undone", abstract: "Mark an action item as not done.",
    arguments: [
      ArgumentSpec(name: "id", help: "The action item's id (as `tasks --all` shows it), or a unique prefix.")
    ],
    options: [LibraryOption.spec])

  let id: String
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals[0]
    library = LibraryOption.url(from: input)
  }

  func run() async throws { try await DoneCommand.set(false, id: id, library: library) }
}
