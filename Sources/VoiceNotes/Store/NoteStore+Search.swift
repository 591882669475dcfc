import Foundation

extension NoteStore {
  /// The weight of each full-text column in ranking, in ``SearchScope/fields`` order: a word in the
  /// title or among the people counts most, one in the transcript least.
  static let searchWeights: [Double] = [10, 1, 2, 4, 8, 3]

  /// Notes matching `query` in `scope`, best first, at most `limit` of them.
  ///
  /// Every word must match, as the start of a word, ignoring case and diacritics: "mar" finds
  /// "Marcus", "jose" finds "José", "call mar" finds notes with both. Quotes and operators are
  /// searched as text, so no query is a syntax error. Ranking is BM25 with the title and people
  /// weighted above the rest.
  ///
  /// ```swift
  /// for result in try await store.search("budget mar", scope: .all) {
  ///   print(result.note.title, result.matchedField, result.snippet)
  /// }
  /// ```
  ///
  /// Throws ``NoteStoreError/emptyQuery`` when `query` holds only spaces.
  public func search(_ query: String, scope: SearchScope = .all, limit: Int = 20) throws -> [SearchResult] {
    let parsed = try FullTextQuery(query)
    guard !parsed.matchesNothing, limit > 0 else { return [] }
    let expression = parsed.expression(in: scope)
    let weights = Self.searchWeights.map { String($0) }.joined(separator: ", ")
    let ranked = try database.query(
      """
      SELECT rowid, bm25(note_search, \(weights)) AS score FROM note_search
      WHERE note_search MATCH ?1 ORDER BY score LIMIT ?2
      """, [.text(expression), .integer(Int64(limit))]
    ) { (number: $0.int(0), score: -$0.double(1)) }
    return try ranked.compactMap { hit in
      guard
        let note = try database.query(
          "SELECT \(Self.noteColumns) FROM notes WHERE number = ?", [.integer(hit.number)], decodeNote
        ).first
      else { return nil }
      let (field, snippet) = try bestField(of: hit.number, matching: expression, in: scope)
      return SearchResult(note: note, score: hit.score, matchedField: field, snippet: snippet)
    }
  }

  /// The field of one matching row that contributes most to its score, and its snippet.
  private func bestField(
    of number: Int64, matching expression: String, in scope: SearchScope
  ) throws -> (SearchScope, String) {
    let fields = SearchScope.fields
    // One BM25 per column (that column's weight, the others zero), then a snippet of each column.
    let scores = fields.indices.map { column in
      "bm25(note_search, "
        + fields.indices.map { $0 == column ? String(Self.searchWeights[$0]) : "0" }.joined(separator: ", ") + ")"
    }
    let snippets = fields.indices.map { column in
      "snippet(note_search, \(column), '\(SearchResult.highlightStart)', '\(SearchResult.highlightEnd)', '…', 16)"
    }
    let sql =
      "SELECT \((scores + snippets).joined(separator: ", ")) FROM note_search WHERE note_search MATCH ?1 AND rowid = ?2"
    let rows = try database.query(sql, [.text(expression), .integer(number)]) { row in
      (scores: fields.indices.map { row.double(Int32($0)) },
       snippets: fields.indices.map { row.text(Int32(fields.count + $0)) ?? "" })
    }
    guard let row = rows.first else { return (scope == .all ? .title : scope, "") }
    var best = scope == .all ? 0 : fields.firstIndex(of: scope) ?? 0
    if scope == .all {
      for column in fields.indices where row.scores[column] < row.scores[best] { best = column }
    }
    return (fields[best], Self.oneLine(row.snippets[best]))
  }

  /// `text` with every run of whitespace (newlines included) made one space.
  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
