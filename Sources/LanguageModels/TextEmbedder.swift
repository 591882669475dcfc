import Foundation
import ModelSupport

/// Turns text into sentence embeddings for semantic search: vectors of unit length whose cosine
/// (their dot product) is high for texts that mean the same thing, even in other words.
///
/// Runs an ``EmbeddingModel`` (all-MiniLM-L6-v2 by default) through llama.cpp on this machine.
/// Many texts go through each forward pass, so embedding a batch costs far less than embedding
/// its texts one by one; the vectors are the same either way.
///
/// ```swift
/// let embedder = try TextEmbedder()
/// let vectors = try await embedder.embed(["call the dentist", "phone the dental office"])
/// let similarity = TextEmbedder.cosine(vectors[0], vectors[1])
/// ```
public actor TextEmbedder {
  /// Length of every vector ``embed(_:)`` returns (384 for `minilm`).
  public nonisolated let dimension: Int
  /// The name of the model the vectors come from, for keeping vectors of different models apart.
  public nonisolated let modelName: String
  /// Tokens of one text the model reads, its two markers included; a longer text's end is dropped.
  public nonisolated let maximumTokens: Int
  private let engine: LlamaEngine

  /// Loads `model` from `directory`, running it on `threads` threads (by default
  /// ``EngineConfiguration/threads``); throws ``TextEmbeddingError/modelNotInstalled(model:file:)``
  /// when the model is not installed, with the command that installs it.
  public init(model: EmbeddingModel = .default, in directory: ModelDirectory = .current, threads: Int? = nil)
    throws(TextEmbeddingError)
  {
    let file = model.file(in: directory)
    guard model.isInstalled(in: directory) else {
      throw .modelNotInstalled(model: model.name, file: file.path)
    }
    do {
      engine = try LlamaEngine(embeddingModelAt: file.path, threads: threads ?? EngineHost.threadCount)
    } catch {
      throw .engineFailure(detail: "llama.cpp could not load \(file.path): \(error)")
    }
    guard engine.embeddingLength == model.dimension else {
      throw .engineFailure(
        detail: "\(file.path) gives \(engine.embeddingLength)-dimensional vectors, expected \(model.dimension)")
    }
    dimension = model.dimension
    modelName = model.name
    maximumTokens = min(model.maximumTokens, LlamaEngine.tokensPerPass)
  }

  /// The unit-length embedding of each text, in order. A text longer than ``maximumTokens`` is
  /// embedded from its beginning; an empty text gets a vector too (the model's markers alone).
  public func embed(_ texts: [String]) async throws(TextEmbeddingError) -> [[Float]] {
    var sequences: [[Int32]] = []
    sequences.reserveCapacity(texts.count)
    for text in texts { sequences.append(await tokens(of: text)) }
    let pooled: [[Float]]
    do {
      pooled = try await engine.embed(sequences)
    } catch {
      throw .engineFailure(detail: "llama.cpp failed to embed \(texts.count) texts: \(error)")
    }
    return pooled.map(Self.normalized)
  }

  /// The unit-length embedding of one text.
  public func embed(_ text: String) async throws(TextEmbeddingError) -> [Float] {
    try await embed([text])[0]
  }

  /// How many tokens the model reads of `text`, markers included, at most ``maximumTokens``:
  /// tells a caller whether a text will be cut short.
  public func tokenCount(_ text: String) async -> Int {
    await tokens(of: text).count
  }

  /// The token ids the model reads of `text`, as ``embed(_:)`` feeds them: the model's markers
  /// around the text's tokens, cut to ``maximumTokens`` with the closing marker kept.
  public func tokens(of text: String) async -> [Int32] {
    let tokens = await engine.tokenizeForEmbedding(text)
    guard tokens.count > maximumTokens, let last = tokens.last else { return tokens }
    return Array(tokens.prefix(maximumTokens - 1)) + [last]
  }

  /// The cosine of the angle between two vectors: 1 for the same direction, 0 for unrelated
  /// ones. For ``embed(_:)``'s unit vectors it is their dot product. 0 when either is all zeros
  /// or their lengths differ.
  public static func cosine(_ a: [Float], _ b: [Float]) -> Float {
    guard a.count == b.count else { return 0 }
    var dot: Float = 0
    var normA: Float = 0
    var normB: Float = 0
    for index in a.indices {
      dot += a[index] * b[index]
      normA += a[index] * a[index]
      normB += b[index] * b[index]
    }
    guard normA > 0, normB > 0 else { return 0 }
    return dot / (normA.squareRoot() * normB.squareRoot())
  }

  /// `vector` scaled to length 1 (unchanged when it is all zeros or not finite).
  public static func normalized(_ vector: [Float]) -> [Float] {
    let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
    guard norm > 0, norm.isFinite else { return vector }
    return vector.map { $0 / norm }
  }
}

/// Why a ``TextEmbedder`` could not be made or could not embed.
public enum TextEmbeddingError: Error, LocalizedError, Equatable, Sendable {
  /// The embedding model's file is not in the models folder.
  case modelNotInstalled(model: String, file: String)
  /// llama.cpp could not load the model or failed while running it.
  case engineFailure(detail: String)

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .modelNotInstalled(let model, let file):
      "the '\(model)' embedding model is not installed (looked for \(file)); run `voicenotes models install \(model)`"
    case .engineFailure(let detail):
      "text embedding failed: \(detail)"
    }
  }
}
