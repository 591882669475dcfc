/// A voice as a point in a speaker-embedding model's space: recordings of the same person lie
/// close together, so a voice heard in one note can be recognised in another.
public struct SpeakerEmbedding: Codable, Sendable, Hashable {
  /// The vector's components (192 for CAM++).
  public var values: [Float]

  /// Wraps the vector `values`.
  public init(values: [Float]) { self.values = values }

  /// Cosine similarity, from -1 to 1: near 1 for the same voice. Zero when the vectors differ in
  /// length or one is all zeros, so a mismatch never looks like a match.
  public func similarity(to other: SpeakerEmbedding) -> Double {
    guard values.count == other.values.count, !values.isEmpty else { return 0 }
    var dot = 0.0
    var left = 0.0
    var right = 0.0
    for (a, b) in zip(values, other.values) {
      dot += Double(a) * Double(b)
      left += Double(a) * Double(a)
      right += Double(b) * Double(b)
    }
    guard left > 0, right > 0 else { return 0 }
    return dot / (left.squareRoot() * right.squareRoot())
  }

  /// The weighted mean direction of `embeddings` (each scaled to unit length first), the usual way
  /// to pool several recordings of one voice; nil for an empty list or mismatched lengths.
  public static func mean(_ embeddings: [SpeakerEmbedding], weights: [Double]? = nil) -> SpeakerEmbedding? {
    guard let count = embeddings.first?.values.count, embeddings.allSatisfy({ $0.values.count == count })
    else { return nil }
    var sum = [Double](repeating: 0, count: count)
    for (index, embedding) in embeddings.enumerated() {
      let norm = embedding.values.reduce(0.0) { $0 + Double($1) * Double($1) }.squareRoot()
      guard norm > 0 else { continue }
      let weight = (weights?[index] ?? 1) / norm
      for component in 0..<count { sum[component] += Double(embedding.values[component]) * weight }
    }
    return SpeakerEmbedding(values: sum.map { Float($0) })
  }
}
