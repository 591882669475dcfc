/// Turns text into vectors whose cosine similarity says how close two texts are in meaning: the
/// seam between the library's semantic index and the engine that embeds (``TextEmbedder`` over
/// llama.cpp, or a stand-in in unit tests).
public protocol PassageEmbedding: Sendable {
  /// The model's name, stored beside each note's vectors: vectors of different models are never
  /// compared, so changing the model re-indexes the library.
  var modelName: String { get }
  /// How many components each vector has.
  var dimension: Int { get }
  /// One unit-length vector per text, in order.
  func embed(_ texts: [String]) async throws -> [[Float]]
}
