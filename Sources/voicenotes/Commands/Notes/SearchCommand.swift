import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes search`: find notes by any of their fields.
struct SearchCommand: ParsableCommand {
  /// The scopes as the command line spells them (`action-items`), in the app's order.
  enum Scope: String, CaseIterable, Sendable {
    case all, title, transcript, summary, tags, people
    case actionItems = "action-items"

    /// The library's scope.
    var libraryScope: SearchScope {
      switch self {
      case .all: .all
      case .title: .title
      case .transcript: .transcript
      case .summary: .summary
      case .tags: .tags
      case .people: .people
      case .actionItems: .actionItems
      }
    }

    /// The command line's name for a library scope.
    static func name(of scope: SearchScope) -> String {
      allCases.first { $0.libraryScope == scope }?.rawValue ?? scope.rawValue
    }
  }

  static let scope = Option<Scope>(
    "scope", short: "s", value: "scope",
    help: "Where to look: all (default), title, transcript, summary, tags, people, action-items.")

  static let mode = Option<SearchMode>(
    "mode", short: "m", value: "mode",
    help:
      "How to match: hybrid (words and meaning; the default once `voicenotes models install minilm` has indexed the notes), keyword or semantic."
  )

  static let configuration = CommandConfiguration(
    name: "search",
    abstract: "Search notes by their words and their meaning; partial words, any case and accents match.",
    discussion:
      "Keyword search needs every word; semantic search finds passages that mean the same (\"dental appointment\" finds \"dentist\"). Each result gives the moment in the recording it matched at. Exits with status 1, printing nothing on standard output, when no note matches (as grep does).",
    arguments: [ArgumentSpec(name: "query", help: "Words to find, for example: mar budget.", isRepeating: true)],
    options: [scope, mode, OutputOptions.json, LibraryOption.option],
    examples: [
      Example("voicenotes search budget", "Notes that mention the budget anywhere, best first."),
      Example("voicenotes search what did I promise the finance team --mode semantic", "Notes by meaning alone."),
      Example("voicenotes search pri --scope people", "Notes that name someone whose name starts with Pri."),
      Example("voicenotes search invoice -s action-items --json", "Matching action items' notes, as JSON."),
    ])

  let query: String
  let scope: Scope
  let mode: SearchMode?
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    query = input.positionals.joined(separator: " ")
    scope = try input.value(Self.scope) ?? .all
    mode = try input.value(Self.mode)
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let results = try await LibraryOption.openExisting(library).search(query, scope: scope.libraryScope, mode: mode)
    if json {
      struct Hit: Encodable {
        var id: String
        var title: String
        var field: String
        var snippet: String
        var score: Double
        var time: Double?
      }
      try OutputOptions.printJSON(
        results.map {
          Hit(
            id: $0.note.id, title: $0.note.title, field: Scope.name(of: $0.matchedField), snippet: $0.snippet,
            score: $0.score, time: $0.time)
        })
    } else {
      for result in results {
        print(NoteFormatting.shortID(result.note.id) + "  " + NoteFormatting.terminalText(result.note.title))
        let place =
          Scope.name(of: result.matchedField)
          + (result.time.map { " at " + NoteFormatting.duration($0).trimmingCharacters(in: .whitespaces) } ?? "") + ":"
        print("          " + TerminalStyle.apply(.dim, place) + " " + snippet(result))
      }
    }
    if results.isEmpty { throw CommandFailure.noMatch("No notes match '\(query)'.") }
  }

  /// The snippet with its matched words in colour on a terminal, between brackets otherwise.
  private func snippet(_ result: SearchResult) -> String {
    let colour = TerminalStyle.allowsColor()
    return result.snippetRuns.map { run in
      let text = NoteFormatting.terminalText(run.text)
      guard run.isMatch else { return text }
      return colour
        ? TerminalStyle.apply(.match, text) : SearchResult.highlightStart + text + SearchResult.highlightEnd
    }.joined()
  }
}
