/// Groups voice embeddings into speakers: agglomerative clustering with centroid linkage over
/// cosine similarity, until a given number of clusters is left or no two clusters are at least
/// ``threshold`` alike.
///
/// ``SpeakerDiarizer`` runs it over one embedding per speech turn, after sherpa-onnx's own
/// clustering, whose window-level labels can put two people who never overlap in one cluster.
struct SpeakerClustering: Sendable {
  /// Clusters whose centroids are at least this similar are merged when no count is given.
  var threshold: Double

  /// The cluster of each of `embeddings` (weighted by `weights`, such as seconds of speech), from
  /// 0 in order of first appearance: `count` clusters when given (fewer if there are fewer
  /// embeddings), else as many as the threshold leaves.
  func labels(for embeddings: [SpeakerEmbedding], weights: [Double], count: Int?) -> [Int] {
    guard !embeddings.isEmpty else { return [] }
    var members: [[Int]] = embeddings.indices.map { [$0] }
    var centroids: [SpeakerEmbedding] = embeddings.indices.map { centroid(of: [$0], embeddings, weights) }
    while members.count > 1 {
      var best = (similarity: -2.0, left: 0, right: 1)
      for left in members.indices {
        for right in members.indices where right > left {
          let similarity = centroids[left].similarity(to: centroids[right])
          if similarity > best.similarity { best = (similarity, left, right) }
        }
      }
      if let count {
        if members.count <= count { break }
      } else if best.similarity < threshold {
        break
      }
      members[best.left] += members[best.right]
      members.remove(at: best.right)
      centroids.remove(at: best.right)
      centroids[best.left] = centroid(of: members[best.left], embeddings, weights)
    }
    var cluster = [Int](repeating: 0, count: embeddings.count)
    let ordered = members.sorted { ($0.min() ?? 0) < ($1.min() ?? 0) }
    for (label, group) in ordered.enumerated() {
      for index in group { cluster[index] = label }
    }
    return cluster
  }

  private func centroid(of group: [Int], _ embeddings: [SpeakerEmbedding], _ weights: [Double]) -> SpeakerEmbedding {
    SpeakerEmbedding.mean(group.map { embeddings[$0] }, weights: group.map { max(weights[$0], 1e-3) })
      ?? embeddings[group[0]]
  }
}
