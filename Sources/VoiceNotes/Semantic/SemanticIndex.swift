import Foundation

/// Search by meaning over a library's passages: the query is embedded, scored against every
/// note's centroid, and the passages of the closest notes are scored one by one.
///
/// The centroids are kept in memory (one ``VectorIndex``, 1.5 kB a note) and reloaded when any
/// note's index changes. Up to ``candidateNotes`` notes every passage is scored, so the search is
/// exact; in a larger library a note is found only when its centroid is among the closest
/// ``candidateNotes``, which a note about one thing always is and a long note about many things
/// may not be.
public actor SemanticIndex {
  /// How many notes' passages are scored after the centroids have picked them.
  public static let candidateNotes = 200
  /// Passages less similar to the query than this are not results: below it a sentence-embedding
  /// model's scores say little more than "also English".
  public static let minimumSimilarity: Float = 0.2

  private let store: NoteStore
  private let embedder: @Sendable () throws -> (any PassageEmbedding)?
  private var cache: (version: Int64, model: String, index: VectorIndex, noteIDs: [String])?

  /// An index over `store`'s passages, embedding queries with what `embedder` gives (nil when no
  /// embedding model is installed).
  public init(store: NoteStore, embedder: @escaping @Sendable () throws -> (any PassageEmbedding)?) {
    self.store = store
    self.embedder = embedder
  }

  /// The embedder, or an error saying how to install one.
  public func requireEmbedder() throws -> any PassageEmbedding {
    guard let embedder = try embedder() else { throw LibraryError.semanticIndexUnavailable }
    return embedder
  }

  /// Whether there is an embedder and at least one note indexed with it.
  public func isReady() async throws -> Bool {
    guard let embedder = try embedder() else { return false }
    return try await store.hasIndexedNote(model: embedder.modelName)
  }

  /// How many notes are indexed, and how many finished notes are not yet.
  public func coverage() async throws -> (indexed: Int, missing: Int) {
    let embedder = try requireEmbedder()
    return (
      try await store.indexedNoteCount(model: embedder.modelName),
      try await store.notesNeedingPassages(model: embedder.modelName).count
    )
  }

  /// The best passage of each of the notes closest in meaning to `query`, best first, at most
  /// `limit` notes; only passages of `kinds` count.
  public func search(
    _ query: String, kinds: Set<NotePassage.Kind> = [.transcript, .summary, .actionItem], limit: Int = 20
  ) async throws -> [PassageMatch] {
    let embedder = try requireEmbedder()
    let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { throw NoteStoreError.emptyQuery }
    guard let vector = try await embedder.embed([trimmed]).first else { return [] }
    return try await search(vector: vector, model: embedder.modelName, kinds: kinds, limit: limit)
  }

  /// As ``search(_:kinds:limit:)``, for a query already embedded by `model`.
  public func search(
    vector: [Float], model: String, kinds: Set<NotePassage.Kind> = [.transcript, .summary, .actionItem],
    limit: Int = 20, excluding excluded: Set<String> = []
  ) async throws -> [PassageMatch] {
    let (index, noteIDs) = try await centroids(model: model, dimension: vector.count)
    let candidates = index.nearest(to: vector, limit: Self.candidateNotes + excluded.count)
      .map { noteIDs[$0.row] }.filter { !excluded.contains($0) }
    var best: [String: PassageMatch] = [:]
    for (passage, passageVector) in try await store.passages(of: candidates, model: model)
    where kinds.contains(passage.kind) && passageVector.count == vector.count {
      let similarity = Self.similarity(passageVector, vector)
      guard similarity >= Self.minimumSimilarity else { continue }
      if similarity > best[passage.noteID]?.similarity ?? -.infinity {
        best[passage.noteID] = PassageMatch(passage: passage, similarity: similarity)
      }
    }
    return Array(
      best.values.sorted {
        $0.similarity > $1.similarity || ($0.similarity == $1.similarity && $0.passage.noteID < $1.passage.noteID)
      }
      .prefix(limit))
  }

  /// The passage of the note `noteID` closest in meaning to `query`, among `kinds`; nil when the
  /// note is not indexed. Where a long note found by its summary says what the query asks.
  public func closestPassage(
    in noteID: String, to query: String, kinds: Set<NotePassage.Kind> = [.transcript]
  ) async throws -> PassageMatch? {
    let embedder = try requireEmbedder()
    guard let vector = try await embedder.embed([query]).first else { return nil }
    var best: PassageMatch?
    for (passage, passageVector) in try await store.passages(of: [noteID], model: embedder.modelName)
    where kinds.contains(passage.kind) && passageVector.count == vector.count {
      let similarity = Self.similarity(passageVector, vector)
      if similarity > best?.similarity ?? -.infinity { best = PassageMatch(passage: passage, similarity: similarity) }
    }
    return best
  }

  /// The notes closest in meaning to the note `noteID` as a whole (its centroid), best first,
  /// with the passage of each that is closest; empty when the note is not indexed.
  public func related(to noteID: String, limit: Int = 5) async throws -> [PassageMatch] {
    guard let embedder = try embedder(),
      let centroid = try await store.centroid(ofNote: noteID, model: embedder.modelName), !centroid.isEmpty
    else { return [] }
    return try await search(vector: centroid, model: embedder.modelName, limit: limit, excluding: [noteID])
  }

  /// The cosine similarity of two unit vectors of the same length.
  private static func similarity(_ a: [Float], _ b: [Float]) -> Float {
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in VectorIndex.dot(a.baseAddress!, b.baseAddress!, a.count) }
    }
  }

  /// The centroid index, loaded again when the library's index has changed since.
  private func centroids(model: String, dimension: Int) async throws -> (VectorIndex, [String]) {
    let version = try await store.passageIndexVersion()
    if let cache, cache.version == version, cache.model == model, cache.index.dimension == dimension {
      return (cache.index, cache.noteIDs)
    }
    let (index, noteIDs) = try await store.centroids(model: model, dimension: dimension)
    cache = (version, model, index, noteIDs)
    return (index, noteIDs)
  }
}
