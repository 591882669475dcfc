/// A passage found by meaning, with its cosine similarity to the query.
public struct PassageMatch: Sendable, Equatable {
  /// The passage.
  public var passage: NotePassage
  /// Cosine similarity to the query, -1...1; higher is closer.
  public var similarity: Float

  /// A match of `passage` at `similarity`.
  public init(passage: NotePassage, similarity: Float) {
    self.passage = passage
    self.similarity = similarity
  }
}
