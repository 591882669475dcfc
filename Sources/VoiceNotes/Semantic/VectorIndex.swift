import LanguageModels

/// Unit-length vectors in one contiguous block, searched by brute force for the rows closest to a
/// query: the in-memory side of the semantic index.
///
/// A scan reads every component once, with 4-wide SIMD arithmetic: about 40 million multiply-adds
/// (0.15 GB) for 100,000 vectors of 384, a few tens of milliseconds on one core. Past a few
/// million vectors that read is the cost, and an approximate index (HNSW, IVF) would be next.
public struct VectorIndex: Sendable {
  /// How many components each vector has.
  public let dimension: Int
  /// The vectors, row after row.
  private var components: [Float]

  /// An empty index of `dimension`-component vectors.
  public init(dimension: Int) {
    self.dimension = dimension
    components = []
  }

  /// How many vectors it holds.
  public var count: Int { dimension == 0 ? 0 : components.count / dimension }

  /// Adds a vector as the next row; one of another length is refused.
  public mutating func append(_ vector: [Float]) -> Bool {
    guard vector.count == dimension else { return false }
    components.append(contentsOf: vector)
    return true
  }

  /// Reserves room for `rows` vectors, so loading a large library allocates once.
  public mutating func reserve(_ rows: Int) { components.reserveCapacity(rows * dimension) }

  /// The `limit` rows with the highest dot product with `query` (cosine similarity, the vectors
  /// being unit length), best first, and their scores. A query of the wrong length finds nothing.
  public func nearest(to query: [Float], limit: Int) -> [(row: Int, score: Float)] {
    guard query.count == dimension, limit > 0, count > 0 else { return [] }
    var best: [(row: Int, score: Float)] = []
    best.reserveCapacity(limit + 1)
    var floor = -Float.infinity
    components.withUnsafeBufferPointer { rows in
      query.withUnsafeBufferPointer { query in
        for row in 0..<count {
          let score = Self.dot(rows.baseAddress! + row * dimension, query.baseAddress!, dimension)
          guard best.count < limit || score > floor else { continue }
          let place = best.firstIndex { $0.score < score } ?? best.count
          best.insert((row, score), at: place)
          if best.count > limit { best.removeLast() }
          if best.count == limit { floor = best[limit - 1].score }
        }
      }
    }
    return best
  }

  /// The dot product of two vectors of `length` components.
  ///
  /// Four 4-wide accumulators, each a multiply then an add: the build targets baseline x86-64,
  /// where a fused multiply-add (`addProduct`) has no instruction and runs five times slower.
  static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ length: Int) -> Float {
    var sums = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
    let rawA = UnsafeRawPointer(a)
    let rawB = UnsafeRawPointer(b)
    func load(_ pointer: UnsafeRawPointer, _ offset: Int) -> SIMD4<Float> {
      pointer.loadUnaligned(fromByteOffset: offset * MemoryLayout<Float>.stride, as: SIMD4<Float>.self)
    }
    var index = 0
    while index + 16 <= length {
      sums.0 += load(rawA, index) * load(rawB, index)
      sums.1 += load(rawA, index + 4) * load(rawB, index + 4)
      sums.2 += load(rawA, index + 8) * load(rawB, index + 8)
      sums.3 += load(rawA, index + 12) * load(rawB, index + 12)
      index += 16
    }
    var total = ((sums.0 + sums.1) + (sums.2 + sums.3)).sum()
    while index < length {
      total += a[index] * b[index]
      index += 1
    }
    return total
  }

  /// The unit-length mean of `vectors`: a note's centroid, which the first stage of a search
  /// scores against the query.
  public static func centroid(of vectors: [[Float]], dimension: Int) -> [Float] {
    var sum = [Float](repeating: 0, count: dimension)
    for vector in vectors where vector.count == dimension {
      for index in 0..<dimension { sum[index] += vector[index] }
    }
    return TextEmbedder.normalized(sum)
  }
}
