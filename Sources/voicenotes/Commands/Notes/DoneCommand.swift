import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes done`: tick action items.
struct DoneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "done", abstract: "Mark action items as done.",
    arguments: [ActionItemIDs.argument],
    options: [OutputOptions.json, LibraryOption.option],
    examples: [
      Example("voicenotes done 9c1e", "Tick the item whose id starts with 9c1e."),
      Example("voicenotes done 9c1e 47ab 0d2f", "Tick three items at once."),
    ])

  let ids: [String]
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    ids = input.positionals
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws { try await ActionItemIDs.set(true, ids: ids, json: json, library: library) }
}
