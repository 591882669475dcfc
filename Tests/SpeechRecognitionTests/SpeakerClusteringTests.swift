import Testing

@testable import SpeechRecognition

/// SpeakerClustering's logic on hand-made vectors (the real embeddings are in SpeakerDiarizerTests).
@Suite("SpeakerClustering")
struct SpeakerClusteringTests {
  let clustering = SpeakerClustering(threshold: 0.5)

  func vector(_ values: Float...) -> SpeakerEmbedding { SpeakerEmbedding(values: values) }

  @Test("vectors close in angle form one cluster each, labelled by first appearance")
  func threshold() {
    let embeddings = [vector(0, 1, 0.1), vector(1, 0, 0), vector(0.1, 1, 0), vector(0.9, 0.1, 0), vector(0, 0, 1)]
    let labels = clustering.labels(for: embeddings, weights: [1, 1, 1, 1, 1], count: nil)
    #expect(labels == [0, 1, 0, 1, 2])
  }

  @Test("a given count merges the closest clusters until it is reached")
  func count() {
    let embeddings = [vector(1, 0, 0), vector(0, 1, 0), vector(0.7, 0.7, 0), vector(0, 0, 1)]
    #expect(Set(clustering.labels(for: embeddings, weights: [1, 1, 1, 1], count: 2)).count == 2)
    #expect(clustering.labels(for: embeddings, weights: [1, 1, 1, 1], count: 4) == [0, 1, 2, 3])
    #expect(clustering.labels(for: embeddings, weights: [1, 1, 1, 1], count: 1) == [0, 0, 0, 0])
    #expect(clustering.labels(for: [], weights: [], count: 2) == [])
  }
}
