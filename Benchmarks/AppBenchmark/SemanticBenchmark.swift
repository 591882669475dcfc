import Foundation
import LanguageModels
import ModelSupport
import VoiceNotes

/// Search by meaning at scale: the generated library of the search benchmark (100,000 notes)
/// with random vectors for every note, searched with real query embeddings; beside it the same
/// brute-force scan of the centroids in numpy (matrix product and partial sort), as a reference.
struct SemanticBenchmark {
  let noteCount: Int
  let rounds: Int
  let cache: URL
  /// Real transcripts (the dev set's JSON lines) whose passages time the embedding stage.
  var transcriptsFile: URL?

  static let queries = [
    "what did I promise the finance team", "dentist appointment next week", "flights to Lisbon",
    "ideas for the garden", "call Marcus about the budget", "birthday dinner plans", "fix the server bug",
    "groceries to buy", "the contract with the lawyer", "training for the marathon",
  ]

  func run() async throws {
    let folder = try await SearchBenchmark(noteCount: noteCount, rounds: 0, cache: cache).prepareLibrary()
    let store = try NoteStore(library: folder)
    let embedder = try TextEmbedder()
    let added = try await store.addSampleVectors(model: embedder.modelName, dimension: embedder.dimension)
    if added > 0 { print("semantic: gave \(added) notes random vectors") }
    let index = SemanticIndex(store: store, embedder: { embedder })
    let vectors = try await embedder.embed(Self.queries)
    let (_, load) = try await Statistics.time {
      try await index.search(vector: vectors[0], model: embedder.modelName, limit: 20)
    }
    print(
      String(
        format: "semantic: %d notes, first search (loads the centroids) %.0f ms", try await store.count(), load * 1000))
    var times: [Double] = []
    for _ in 0..<rounds {
      for vector in vectors {
        let (_, seconds) = try await Statistics.time {
          try await index.search(vector: vector, model: embedder.modelName, limit: 20)
        }
        times.append(seconds * 1000)
      }
    }
    var embedTimes: [Double] = []
    for query in Self.queries {
      embedTimes.append(try await Statistics.time { try await embedder.embed([query]) }.1 * 1000)
    }
    print(
      String(
        format: "ours:  search p50 %.1f ms, p99 %.1f ms (%d searches); embedding a query p50 %.1f ms",
        Statistics.median(times), Statistics.percentile(times, 0.99), times.count, Statistics.median(embedTimes)))
    if let transcriptsFile { try await embeddingThroughput(embedder, transcripts: transcriptsFile) }
    if let reference = try await reference(store: store, model: embedder.modelName, dimension: embedder.dimension) {
      print(
        String(
          format: "numpy: centroid scan p50 %.1f ms, p99 %.1f ms; ours/numpy p99 %.2fx (ours also scores the passages)",
          reference.0, reference.1, Statistics.percentile(times, 0.99) / reference.1))
    }
  }

  /// The embedding stage's throughput: each transcript cut into passages of the pipeline's length
  /// and embedded note by note, as the indexing stage does, three rounds, the median printed.
  private func embeddingThroughput(_ embedder: TextEmbedder, transcripts file: URL) async throws {
    let notes = try DevTranscripts.read(file).map { transcript -> [String] in
      let words = transcript.split(whereSeparator: \.isWhitespace)
      return stride(from: 0, to: words.count, by: NotePassage.wordsPerPassage).map {
        words[$0..<min($0 + NotePassage.wordsPerPassage, words.count)].joined(separator: " ")
      }
    }
    let passages = notes.reduce(0) { $0 + $1.count }
    var rates: [Double] = []
    for _ in 0..<3 {
      let (_, seconds) = try await Statistics.time {
        for note in notes { _ = try await embedder.embed(note) }
      }
      rates.append(Double(passages) / seconds)
    }
    print(
      String(
        format: "embedding: %d passages of up to %d words from %d notes, %.0f passages/s (median of 3 rounds)",
        passages, NotePassage.wordsPerPassage, notes.count, Statistics.median(rates)))
  }

  /// The numpy reference's p50 and p99 in milliseconds, over the centroids written to a file.
  private func reference(store: NoteStore, model: String, dimension: Int) async throws -> (Double, Double)? {
    let matrix = cache.appendingPathComponent("centroids-\(noteCount).f32")
    if !FileManager.default.fileExists(atPath: matrix.path) {
      try await store.exportCentroidMatrix(model: model, to: matrix)
    }
    let script = """
      import sys, time, numpy as np
      m = np.fromfile(sys.argv[1], dtype=np.float32).reshape(-1, \(dimension))
      rng = np.random.default_rng(1)
      times = []
      for _ in range(\(rounds * Self.queries.count)):
          q = rng.standard_normal(\(dimension)).astype(np.float32); q /= np.linalg.norm(q)
          t = time.perf_counter(); s = m @ q; top = np.argpartition(-s, 200)[:200]; top = top[np.argsort(-s[top])]
          times.append((time.perf_counter() - t) * 1000)
      times.sort()
      print(times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))])
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script, matrix.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.runWithDefaultSignals()
    process.waitUntilExit()
    let parts = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    return parts.count == 2 ? (parts[0], parts[1]) : nil
  }
}
