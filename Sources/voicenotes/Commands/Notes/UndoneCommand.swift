import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes undone`: reopen action items.
struct UndoneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "undone", abstract: "Mark action items as not done.",
    arguments: [ActionItemIDs.argument],
    options: [OutputOptions.json, LibraryOption.option],
    examples: [Example("voicenotes undone 9c1e", "Reopen the item whose id starts with 9c1e (`tasks --all` shows it).")]
  )

  let ids: [String]
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    ids = input.positionals
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws { try await ActionItemIDs.set(false, ids: ids, json: json, library: library) }
}
