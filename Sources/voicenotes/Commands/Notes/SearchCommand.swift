import Foundation
import VoiceNotes

/// `voicenotes search`: find notes by any of their fields.
struct SearchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "search", abstract: "Search notes; partial words, any case and accents match.",
    arguments: [ArgumentSpec(name: "query", help: "Words to find, for example: mar budget.", isRepeating: true)],
    options: [
      .option(
        "scope", short: "s", value: "scope",
        help: "Where to look: all (default), title, transcript, summary, tags, people, actionItems.",
        allowed: SearchScope.allCases.map(\.rawValue)),
      .flag("json", help: "Print the results as JSON."), LibraryOption.spec,
    ])

  let query: String
  let scope: SearchScope
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    query = input.positionals.joined(separator: " ")
    scope = input.value("scope").flatMap(SearchScope.init(rawValue:)) ?? .all
    json = input.flag("json")
    library = LibraryOption.url(from: input)
  }

  func run() async throws {
    let results = try await LibraryOption.open(library).search(query, scope: scope)
    if json {
      struct Hit: Encodable {
        var id: String
        var title: String
        var field: String
        var snippet: String
        var score: Double
      }
      print(
        try NoteFormatting.json(
          results.map {
            Hit(
              id: $0.note.id, title: $0.note.title, field: $0.matchedField.rawValue, snippet: $0.snippet,
              score: $0.score)
          }))
      return
    }
    if results.isEmpty {
      print("No notes match '\(query)'.")
      return
    }
    for result in results {
      print("\(result.note.id.prefix(8))  \(result.note.title)")
      print("          \(result.matchedField.rawValue): \(result.snippet)")
    }
  }
}
