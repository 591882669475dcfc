import LanguageModels

/// The assistant's search: notes matching a query by words and meaning, as numbered excerpts the
/// answer can cite.
public struct SearchNotesTool: Tool {
  /// What the model generates to search.
  @Generable
  public struct Arguments: Sendable {
    /// What to look for.
    @Guide(description: "What to look for, in a few words")
    public var query: String
    /// Which part of the notes to look in.
    @Guide(description: "Where to look", .anyOf(["all", "transcript", "summary", "actionItems", "people"]))
    public var scope: String
  }

  /// The tool's name, as the model calls it.
  public let name = "searchNotes"
  /// When the model should call it.
  public let description = "Searches the voice notes by words and meaning; returns numbered excerpts to cite."

  let library: Library
  let book: CitationBook
  /// How many notes one search returns.
  static let resultCount = 4

  /// A search over `library` whose excerpts are numbered in `book`.
  public init(library: Library, book: CitationBook) {
    self.library = library
    self.book = book
  }

  /// Searches and returns one numbered excerpt per note found, or says nothing matched.
  public func call(arguments: Arguments) async throws -> String {
    let scope = SearchScope(rawValue: arguments.scope) ?? .all
    let lines = try await Self.excerpts(
      for: arguments.query, scope: scope, in: library, book: book, limit: Self.resultCount
    ).map(CitationBook.line)
    return lines.isEmpty ? "No note matches \"\(arguments.query)\"." : lines.joined(separator: "\n")
  }

  /// The least similarity in meaning (cosine) of a note to the query for its excerpt to be shown.
  /// On the dev questions (Benchmarks/AskEval) nearly every note that answers scored above it;
  /// below it a note shares no more than a word with the query.
  static let minimumSimilarity = 0.25
  /// How far below the best note's similarity another note may be and still be shown.
  static let similarityMargin = 0.3

  /// The results of a hybrid search that are about the query: those close in meaning (above the
  /// floor and near the best), and the best match by words, which holds the query's rarest
  /// words ("contractor", a name) even when its meaning scores low. A small model shown a note
  /// that only shares a common word with the question is drawn to it, or to saying the notes
  /// don't say when the answer is in the note beside it. A search by words alone (no semantic
  /// index) carries neither figure and is kept whole.
  static func about(query results: [SearchResult]) -> [SearchResult] {
    guard results.contains(where: { $0.similarity != nil || $0.keywordRank != nil }) else { return results }
    let best = results.compactMap(\.similarity).max() ?? 0
    let least = max(minimumSimilarity, best - similarityMargin)
    return results.filter { $0.keywordRank == 0 || ($0.similarity ?? 0) >= least }
  }

  /// The first `limit` of `results` (already ``about(query:)`` the query): the best match by words,
  /// then the rest closest in meaning first. The fused ranking raises a note that shares a common
  /// word with the question ("done") and is somewhat near it above the note nearest in meaning
  /// that shares none ("MRI" for "scan"), which then missed the cut; by meaning alone, search
  /// finds the answering note as often as fused, and the best match by words keeps the rare word.
  /// A search by words alone (no similarities) keeps its order.
  static func closest(_ results: [SearchResult], limit: Int) -> [SearchResult] {
    guard results.contains(where: { $0.similarity != nil }) else { return Array(results.prefix(limit)) }
    let byWords = results.filter { $0.keywordRank == 0 }
    let byMeaning = results.filter { $0.keywordRank != 0 }.sorted { ($0.similarity ?? 0) > ($1.similarity ?? 0) }
    return Array((byWords + byMeaning).prefix(limit))
  }

  /// Numbered excerpts of the notes that best match `query`: the passage each matched at. Twice
  /// `limit` results are fused and filtered, so that ``closest(_:limit:)`` has some to choose from.
  static func excerpts(
    for query: String, scope: SearchScope, in library: Library, book: CitationBook, limit: Int
  ) async throws -> [NoteCitation] {
    let results: [SearchResult]
    do {
      results = closest(about(query: try await library.search(query, scope: scope, limit: limit * 2)), limit: limit)
    } catch NoteStoreError.emptyQuery {
      return []
    }
    var excerpts: [NoteCitation] = []
    // Asked once, and only when a result was found outside the transcript.
    let indexed =
      results.contains { $0.matchedField != .transcript } ? try await library.semanticIndex.isReady() : false
    for result in results {
      let note = try await library.note(result.note.id)
      var closest: Double?
      if result.matchedField != .transcript, indexed {
        closest = try await library.semanticIndex.closestPassage(in: note.id, to: query)?.passage.start
      }
      let excerpt = NoteExcerpt.matching(result, in: note, closest: closest)
      excerpts.append(book.add(excerpt.text, of: note, at: excerpt.time))
    }
    return excerpts
  }
}
