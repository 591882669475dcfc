import Foundation

extension NoteStore {
  /// The weight of each full-text column in ranking, in ``SearchScope/fields`` order: a word in the
  /// title or among the people counts most, one in the transcript least.
  static let searchWeights: [Double] = [10, 1, 2, 4, 8, 3]

  /// The most matching notes a search ranks. A query that matches more (a common word in a large
  /// library) is ranked among its most recent matches, which keeps every search within a few
  /// milliseconds at 100,000 notes; below this every match is ranked.
  static let rankingWindow = 1_000

  /// Notes matching `query` in `scope`, best first, at most `limit` of them.
  ///
  /// Every word must match, as the start of a word, ignoring case and diacritics: "mar" finds
  /// "Marcus", "jose" finds "José", "call mar" finds notes with both; a one-letter word matches
  /// only itself. Quotes and operators are searched as text, so no query is a syntax error; a
  /// query of punctuation alone finds nothing. Ranking is BM25 without word rarity (see
  /// ``SearchRanking``), title and people weighted above the rest (see ``rankingWindow`` for
  /// queries that match thousands of notes).
  ///
  /// ```swift
  /// for result in try await store.search("budget mar", scope: .all) {
  ///   print(result.note.title, result.matchedField, result.snippet)
  /// }
  /// ```
  ///
  /// Throws ``NoteStoreError/emptyQuery`` when `query` holds only spaces.
  ///
  /// With `matchingAnyWord`, a note needs only one of the query's words (stop words aside): how
  /// hybrid search reads a question, whose every word no note holds.
  public func search(
    _ query: String, scope: SearchScope = .all, limit: Int = 20, matchingAnyWord: Bool = false
  ) throws -> [SearchResult] {
    let parsed = try FullTextQuery(query)
    guard !parsed.matchesNothing, limit > 0 else { return [] }
    let weights = Self.searchWeights.map { String($0) }.joined(separator: ", ")
    // FTS5 walks the matches newest first and stops at the window; the best are picked here.
    // Any word may match: each word's rarity matters then (one rare word outweighs three common
    // ones), so FTS5's own BM25, which weighs it, ranks; its scores are negative, best lowest.
    let rank =
      matchingAnyWord ? "-bm25(note_search, \(weights))" : "\(SearchRanking.functionName)(note_search, \(weights))"
    let expression = try parsed.expression(in: scope, matchingAnyWord: matchingAnyWord, completions: completions)
    var ranked = try database.query(
      """
      SELECT rowid, \(rank) FROM note_search
      WHERE note_search MATCH ?1 ORDER BY rowid DESC LIMIT ?2
      """, [.text(expression), .integer(Int64(Self.rankingWindow))]
    ) { (number: $0.int(0), score: $0.double(1)) }
    ranked.sort { $0.score > $1.score || ($0.score == $1.score && $0.number > $1.number) }
    let highlighter = SearchHighlighter(parsed, matchingAnyWord: matchingAnyWord)
    return try ranked.prefix(limit).compactMap { hit in
      guard
        let note = try database.query(
          "SELECT \(Self.noteColumns) FROM notes WHERE number = ?", [.integer(hit.number)], decodeNote
        ).first
      else { return nil }
      let (field, snippet) = Self.bestField(of: note, highlighter: highlighter, in: scope)
      let time =
        field == .transcript
        ? note.transcript?.segments.first { highlighter.match($0.text) != nil }?.start : nil
      return SearchResult(
        note: note, score: hit.score, matchedField: field, snippetRuns: SearchResult.runs(ofMarked: snippet),
        time: time)
    }
  }

  /// The most words a typed prefix is expanded into before search falls back to a prefix query.
  static let maximumCompletions = 64

  /// The indexed words that start with `prefix` (already folded), or nil when there are more
  /// than ``maximumCompletions``.
  func completions(_ prefix: String) throws -> [String]? {
    let terms = try database.query(
      "SELECT term FROM search_terms WHERE term >= ?1 AND term < ?2 LIMIT ?3",
      [.text(prefix), .text(prefix + "\u{10FFFF}"), .integer(Int64(Self.maximumCompletions + 1))]
    ) { $0.text(0) ?? "" }
    return terms.count > Self.maximumCompletions ? nil : terms
  }

  /// The field of a matching note that matched best (the most different query words, weighted as
  /// in ranking), and a snippet of it.
  static func bestField(
    of note: VoiceNote, highlighter: SearchHighlighter, in scope: SearchScope
  ) -> (SearchScope, String) {
    let fields = SearchScope.fields
    let texts = searchFields(of: note)
    // Heaviest fields first, so a field that cannot win (the long transcript, usually) is skipped.
    let candidates =
      scope == .all
      ? fields.indices.sorted { searchWeights[$0] > searchWeights[$1] } : [fields.firstIndex(of: scope) ?? 0]
    let mostWords = Double(highlighter.parts.count) + 1
    var best: (column: Int, snippet: String, score: Double)?
    for column in candidates {
      if let best, best.score >= searchWeights[column] * mostWords { break }
      guard let match = highlighter.match(texts[column]) else { continue }
      let score = searchWeights[column] * (Double(match.distinctWords) + 0.1 * Double(min(match.occurrences, 10)))
      if score > best?.score ?? 0 { best = (column, match.snippet, score) }
    }
    if let best { return (fields[best.column], best.snippet) }
    // The index matched a word this folding does not see (a rare tokenizer difference): show the
    // field's opening words.
    let column = candidates.first { !texts[$0].isEmpty } ?? candidates[0]
    let words = texts[column].split(whereSeparator: \.isWhitespace)
    return (fields[column], words.prefix(16).joined(separator: " ") + (words.count > 16 ? "…" : ""))
  }
}
