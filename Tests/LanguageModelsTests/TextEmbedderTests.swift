import Foundation
import Testing

@testable import LanguageModels

/// One embedder (the model loaded once) for every test of the suite.
let sharedEmbedder = Result { () throws(TextEmbeddingError) -> TextEmbedder in try TextEmbedder() }

/// The converter's reference: sentences it tokenised with its own WordPiece and embedded with an
/// independent numpy forward pass of the network.
struct EmbeddingReference: Decodable {
  struct Sentence: Decodable {
    var text: String
    var tokens: [Int32]
    var embedding: [Float]
  }

  var dimension: Int
  var sentences: [Sentence]
}

/// TextEmbedder running all-MiniLM-L6-v2 through llama.cpp, checked against numpy's forward pass
/// of the same weights and against what semantic search needs of it.
@Suite("TextEmbedder", .serialized)
struct TextEmbedderTests {
  func embedder() throws -> TextEmbedder { try sharedEmbedder.get() }

  static func norm(_ vector: [Float]) -> Float { vector.reduce(0) { $0 + $1 * $1 }.squareRoot() }

  @Test("llama.cpp's tokens and vectors match the converter's independent numpy reference")
  func matchesReference() async throws {
    let file = EmbeddingModel.minilm.referenceFile()
    let reference = try JSONDecoder().decode(EmbeddingReference.self, from: Data(contentsOf: file))
    let embedder = try embedder()
    #expect(reference.dimension == embedder.dimension)
    let vectors = try await embedder.embed(reference.sentences.map(\.text))
    for (sentence, vector) in zip(reference.sentences, vectors) {
      #expect(await embedder.tokens(of: sentence.text) == sentence.tokens, "\(sentence.text)")
      let similarity = TextEmbedder.cosine(vector, sentence.embedding)
      #expect(similarity > 0.999, "\(sentence.text): cosine \(similarity)")
    }
  }

  @Test("a paraphrase scores higher than unrelated sentences")
  func paraphrases() async throws {
    let vectors = try await embedder().embed([
      "I need to call the dentist tomorrow",
      "Remember to phone the dental office tomorrow",
      "The quarterly sales figures are due on Friday",
      "We saw a heron fishing by the river at dawn",
    ])
    let paraphrase = TextEmbedder.cosine(vectors[0], vectors[1])
    let unrelated = [TextEmbedder.cosine(vectors[0], vectors[2]), TextEmbedder.cosine(vectors[0], vectors[3])]
    #expect(paraphrase > 0.5, "paraphrase \(paraphrase)")
    #expect(unrelated.allSatisfy { $0 < paraphrase - 0.3 }, "paraphrase \(paraphrase), unrelated \(unrelated)")
  }

  @Test("a batch of 20 texts gives each text the vector it gets alone")
  func batchEqualsSingles() async throws {
    let embedder = try embedder()
    let texts = (0..<20).map { index in
      String(
        repeating: ["buy milk and eggs ", "the meeting moved to Tuesday ", "call Priya about the invoice "][index % 3],
        count: 1 + index % 4) + "note \(index)"
    }
    let batch = try await embedder.embed(texts)
    #expect(batch.count == texts.count)
    for (text, vector) in zip(texts, batch) {
      let alone = try await embedder.embed(text)
      #expect(TextEmbedder.cosine(vector, alone) > 0.9999, "\(text)")
    }
  }

  @Test("an empty text and a 2,000-word text give 384 finite values of length 1")
  func emptyAndLong() async throws {
    let embedder = try embedder()
    let words = ["budget", "river", "meeting", "invoice", "garden", "Tuesday", "call", "notes"]
    let long = (0..<2_000).map { words[$0 % words.count] }.joined(separator: " ")
    #expect(await embedder.tokenCount(long) == embedder.maximumTokens)
    #expect(await embedder.tokenCount("") == 2)
    let vectors = try await embedder.embed(["", long, "short"])
    for vector in vectors {
      #expect(vector.count == 384)
      #expect(vector.allSatisfy { $0.isFinite })
      #expect(abs(Self.norm(vector) - 1) < 1e-4)
    }
    // The long text is cut, not refused: its vector is the one of its first 254 word pieces.
    let cut = try await embedder.embed(long.split(separator: " ").prefix(254).joined(separator: " "))
    #expect(TextEmbedder.cosine(vectors[1], cut) > 0.9999)
  }

  @Test("a missing model is an error naming the command that installs it")
  func missingModel() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-models-\(getpid())")
    #expect(throws: TextEmbeddingError.self) { _ = try TextEmbedder(in: ModelDirectory(url: folder)) }
    do {
      _ = try TextEmbedder(in: ModelDirectory(url: folder))
    } catch {
      let message = error.localizedDescription
      #expect(message.contains("voicenotes models install minilm"), "\(message)")
      #expect(message.contains(folder.path), "\(message)")
    }
  }

  @Test("cosine is 1 for the same direction, 0 for orthogonal or zero vectors")
  func cosine() {
    #expect(abs(TextEmbedder.cosine([1, 2, 3], [2, 4, 6]) - 1) < 1e-6)
    #expect(TextEmbedder.cosine([1, 0], [0, 1]) == 0)
    #expect(TextEmbedder.cosine([0, 0], [1, 1]) == 0)
    #expect(TextEmbedder.cosine([1], [1, 2]) == 0)
  }
}
