import Foundation
import LanguageModels
import Synchronization

extension TextEmbedder: PassageEmbedding {}

extension Library {
  /// The one place the passage embedder is made: what the pipeline's indexing stage and the
  /// semantic index ask for. Nil while the embedding model is not installed, so the stage is
  /// skipped and search is by keyword alone; loaded when first needed and kept.
  static func passageEmbedder(_ configuration: LibraryConfiguration) -> @Sendable () throws -> (any PassageEmbedding)? {
    let loaded = Mutex<TextEmbedder?>(nil)
    return {
      try loaded.withLock { embedder in
        if let embedder { return embedder }
        guard EmbeddingModel.default.isInstalled() else { return nil }
        let made = try TextEmbedder()
        embedder = made
        return made
      }
    }
  }

  /// Reciprocal rank fusion's constant: a result's fused score is the sum over the lists it is in
  /// of 1 / (k + its rank there), so being first in one list weighs about as much as being fifth
  /// in both, and scores of different kinds (BM25, cosine) never need to be made comparable.
  static let fusionConstant = 60.0
  /// How deep each list is read before fusing.
  static let fusionDepth = 50
  /// What a place in the ranking by words counts for, against one in the ranking by meaning,
  /// when the note holds only some of the query's words.
  static let someWordsWeight = 0.5
  /// The least share of the best score by words a note with only some of the query's words
  /// needs to be fused at all. A question's words other than the rarest match nearly every
  /// note ("still", "pay"), and fusing that long, flat tail gave each note in it a little more
  /// than the note closest in meaning that shares no word with the question ("scan" against
  /// "MRI"), which then fell out of the first results.
  static let someWordsShare = 0.5

  /// How a search with no mode given is done: hybrid when the library has a semantic index and
  /// `scope` is one that meaning can be searched in, keyword otherwise.
  public nonisolated func defaultSearchMode(scope: SearchScope = .all) async throws -> SearchMode {
    guard Self.passageKinds(in: scope) != nil, try await semanticIndex.isReady() else { return .keyword }
    return .hybrid
  }

  /// Notes matching `query` in `scope`, best first, found by `mode` (by default
  /// ``defaultSearchMode(scope:)``). A semantic or hybrid search needs the embedding model and an
  /// indexed note, and looks only in transcripts, summaries and action items.
  public nonisolated func search(
    _ query: String, scope: SearchScope = .all, mode: SearchMode? = nil, limit: Int = 20
  ) async throws -> [SearchResult] {
    let chosen = if let mode { mode } else { try await defaultSearchMode(scope: scope) }
    if chosen == .keyword { return try await reader.search(query, scope: scope, limit: limit) }
    guard let kinds = Self.passageKinds(in: scope) else { throw LibraryError.semanticScope(scope.displayName) }
    // A default of hybrid has just found the index ready; a mode asked for is checked here.
    if mode != nil, try await !semanticIndex.isReady() {
      _ = try await semanticIndex.requireEmbedder()
      throw LibraryError.semanticIndexEmpty
    }
    let matches = try await semanticIndex.search(
      query, kinds: kinds, limit: chosen == .hybrid ? Self.fusionDepth : limit)
    if chosen == .semantic {
      return try await matches.prefix(limit).asyncCompactMap { match in
        try await self.result(for: match, score: Double(match.similarity))
      }
    }
    // Notes with every word first, then those with some of its telling words: a question
    // ("when is my dentist appointment?") has words that no note holds all of.
    var keyword = try await reader.search(query, scope: scope, limit: Self.fusionDepth)
    let everyWord = keyword.count
    if keyword.count < Self.fusionDepth {
      let found = Set(keyword.map(\.note.id))
      let some = try await reader.search(query, scope: scope, limit: Self.fusionDepth, matchingAnyWord: true)
      keyword += Self.nearBest(some).filter { !found.contains($0.note.id) }.prefix(Self.fusionDepth - keyword.count)
    }
    var fused: [String: Double] = [:]
    for (rank, result) in keyword.enumerated() {
      // A note with only some of the words (often a question's common ones) is weaker evidence
      // than one with all of them, or one close in meaning.
      let weight = rank < everyWord ? 1 : Self.someWordsWeight
      fused[result.note.id, default: 0] += weight / (Self.fusionConstant + Double(rank + 1))
    }
    // Both lists rank notes: a note counts once in the ranking by meaning, at its best passage,
    // so a long note is not raised by having many passages near the query.
    var ranked: Set<String> = []
    let notesByMeaning = matches.filter { ranked.insert($0.passage.noteID).inserted }
    for (rank, match) in notesByMeaning.enumerated() {
      fused[match.passage.noteID, default: 0] += 1 / (Self.fusionConstant + Double(rank + 1))
    }
    let byKeyword = Dictionary(
      keyword.enumerated().map { rank, result in
        var ranked = result
        ranked.keywordRank = rank
        return (result.note.id, ranked)
      }, uniquingKeysWith: { first, _ in first })
    let byMeaning = Dictionary(matches.map { ($0.passage.noteID, $0) }, uniquingKeysWith: { first, _ in first })
    let order = fused.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.prefix(limit)
    return try await order.asyncCompactMap { id, score in
      if var result = byKeyword[id] {
        result.score = score
        result.similarity = byMeaning[id].map { Double($0.similarity) }
        if result.time == nil, let passage = byMeaning[id]?.passage, passage.kind == .transcript {
          result.time = passage.start
        }
        return result
      }
      guard let match = byMeaning[id] else { return nil }
      return try await self.result(for: match, score: score)
    }
  }

  /// The results by some of the query's words that score at least ``someWordsShare`` of the
  /// best one (`results` best first, as the store returns them).
  static func nearBest(_ results: [SearchResult]) -> [SearchResult] {
    let least = (results.first?.score ?? 0) * someWordsShare
    return results.filter { $0.score >= least }
  }

  /// The notes closest in meaning to the note `id`, best first, each with the passage that is
  /// closest to it; empty when the library has no semantic index.
  public nonisolated func relatedNotes(to id: String, limit: Int = 5) async throws -> [SearchResult] {
    try await semanticIndex.related(to: id, limit: limit).asyncCompactMap { match in
      try await self.result(for: match, score: Double(match.similarity))
    }
  }

  /// A search result for a passage found by meaning.
  private nonisolated func result(for match: PassageMatch, score: Double) async throws
    -> SearchResult?
  {
    guard let note = try await reader.summary(id: match.passage.noteID) else { return nil }
    let passage = match.passage
    let field: SearchScope =
      switch passage.kind {
      case .transcript: .transcript
      case .summary: .summary
      case .actionItem: .actionItems
      }
    // A match by meaning has no matched words to mark: the query's words, matched as prefixes,
    // would mark "to" in "tomorrow". The passage's opening is shown as it is.
    let runs = [SearchResult.SnippetRun(text: Self.opening(of: passage.text), isMatch: false)]
    var result = SearchResult(
      note: note, score: score, matchedField: field, snippetRuns: runs,
      time: passage.kind == .transcript ? passage.start : nil)
    result.similarity = Double(match.similarity)
    return result
  }

  /// The first words of `text`, "…" after them when some were left out.
  static func opening(of text: String, words: Int = 24) -> String {
    let all = text.split(whereSeparator: \.isWhitespace)
    return all.prefix(words).joined(separator: " ") + (all.count > words ? "…" : "")
  }

  /// The passages a semantic search in `scope` looks at; nil for scopes meaning is not searched in.
  static func passageKinds(in scope: SearchScope) -> Set<NotePassage.Kind>? {
    switch scope {
    case .all: [.transcript, .summary, .actionItem]
    case .transcript: [.transcript]
    case .summary: [.summary]
    case .actionItems: [.actionItem]
    case .title, .tags, .people: nil
    }
  }
}

extension Sequence where Element: Sendable {
  /// `transform` applied to each element in order, one at a time, leaving out nils.
  fileprivate func asyncCompactMap<T>(_ transform: (Element) async throws -> T?) async rethrows -> [T] {
    var results: [T] = []
    for element in self {
      if let value = try await transform(element) { results.append(value) }
    }
    return results
  }
}
