import Foundation

@testable import VoiceNotes

/// Search query parsing: ``FullTextQuery`` (the FTS5 expression for each scope), the highlighter
/// (``SearchHighlighter``) on a text, and a real search of a small library, which must never fail
/// with an SQL error (the query is built so that FTS5 never sees a syntax error).
///
/// The input is UTF-8 text: the query, then after the first zero byte the text to highlight.
enum SearchQueryFuzz {
  /// A library of 30 synthetic notes, made once.
  private static let store = makeStore()

  private static func makeStore() -> NoteStore {
    let folder = FuzzFolder.url.appendingPathComponent("search-library", isDirectory: true)
    let store = AsyncRunner.wait { () -> NoteStore? in
      guard let store = try? NoteStore(library: folder),
        (try? await store.addSampleNotes(count: 30, wordsPerNote: 60)) != nil
      else { return nil }
      return store
    }
    guard let store else { fatalError("cannot make the search library") }
    return store
  }

  static func run(_ data: Data) {
    let parts = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let queryText = String(decoding: parts[0], as: UTF8.self)
    let text = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : queryText
    let query: FullTextQuery
    do {
      query = try FullTextQuery(queryText)
    } catch {
      fuzzCheck(queryText.allSatisfy(\.isWhitespace), "'\(queryText)' refused: \(error)")
      return
    }
    for scope in SearchScope.allCases {
      _ = try? query.expression(in: scope)
      _ = query.expression(in: scope) { word in [word, word + "s", "x" + word] }
    }
    _ = query.matches(text)
    let highlighter = SearchHighlighter(query)
    if let match = highlighter.match(text) {
      let scalars = match.snippet.unicodeScalars
      let starts = scalars.filter { $0 == SearchHighlighter.matchStart.unicodeScalars.first }.count
      let ends = scalars.filter { $0 == SearchHighlighter.matchEnd.unicodeScalars.first }.count
      fuzzCheck(starts == ends && starts > 0, "a snippet with \(starts) starts and \(ends) ends: \(match.snippet)")
      let runs = SearchResult.runs(ofMarked: match.snippet)
      let matchedRuns = runs.filter(\.isMatch).count
      fuzzCheck(matchedRuns == starts, "\(starts) matches marked, \(matchedRuns) matched runs")
    }
    let scope = SearchScope.allCases[data.count % SearchScope.allCases.count]
    let store = Self.store
    let failure = AsyncRunner.wait { () -> String? in
      do {
        for result in try await store.search(queryText, scope: scope, limit: 5) { _ = result.snippetRuns }
        return nil
      } catch {
        return "\(error)"
      }
    }
    fuzzCheck(failure == nil, "searching '\(queryText)' in \(scope) failed: \(failure ?? "")")
  }
}
