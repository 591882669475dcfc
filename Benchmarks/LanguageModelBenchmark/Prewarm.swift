import Foundation
import LanguageModels
import ModelSupport

/// `prewarm`: how much sooner the first snapshot arrives after `session.prewarm()`.
///
/// Cold: a new process makes a session with an app's instructions and asks at once (loading the
/// weights and evaluating instructions and prompt), or calls `prewarm()`, waits `--wait` seconds,
/// then asks. Each cold run is a child process of this one. Warm: the weights are loaded; a new
/// session asks at once, or prewarms, waits and asks; the KV cache is emptied of anything shared
/// before each.
struct PrewarmResult: Encodable {
  var command = "prewarm"
  var model: String
  var threads: Int
  var runs: Int
  var waitSeconds: Double
  /// Tokens of the instructions and of the prompt (rendered with the chat template).
  var instructionsTokens: Int
  var promptTokens: Int
  /// Median seconds to the first snapshot; cold ones count from the child's start (weights not
  /// yet loaded) or, prewarmed, from the end of the wait.
  var coldPlainSeconds: Double
  var coldPrewarmedSeconds: Double
  var warmPlainSeconds: Double
  var warmPrewarmedSeconds: Double
  var coldRuns: [ChildResult]
}

/// What one cold child process measured.
struct ChildResult: Codable {
  var mode: String
  /// Seconds to the first snapshot, from the request (prewarmed) or from the process's start.
  var firstSnapshotSeconds: Double
  /// Seconds from the process's start to the first snapshot (for prewarmed, the wait included).
  var sinceStartSeconds: Double
}

func runPrewarm(_ arguments: Arguments) async throws -> PrewarmResult {
  let modes = ["plain", "prewarmed"]
  var cold: [ChildResult] = []
  for round in 0..<arguments.runs {
    for mode in round % 2 == 0 ? modes : modes.reversed() {
      log("prewarm: round \(round + 1), new process, \(mode)")
      cold.append(try runChild(arguments, mode: mode))
    }
  }

  log("prewarm: loading \(arguments.model) in this process")
  let (model, _) = try await loadModel(arguments.model)
  let instructions = Texts.longInstructions
  let prompt = Texts.analysisRequest
  var warm: [String: [Double]] = [:]
  for round in 0..<arguments.runs {
    for mode in round % 2 == 0 ? modes : modes.reversed() {
      try await evictCache(model)
      let session = LanguageModelSession(model: model, instructions: instructions)
      if mode == "prewarmed" {
        session.prewarm()
        try await Task.sleep(for: .seconds(arguments.wait))
      }
      let timing = try await timeTextStream(session, prompt: prompt, options: greedy(4))
      warm[mode, default: []].append(timing.firstSnapshot)
      log("prewarm: round \(round + 1), loaded, \(mode): \(String(format: "%.2f", timing.firstSnapshot)) s")
    }
  }
  let instructionsTokens = try await model.tokenCount(for: instructions)
  let withInstructions = try await model.tokenCount(for: chatML(instructions: instructions, prompt: prompt))
  return PrewarmResult(
    model: arguments.model, threads: engineThreads, runs: arguments.runs, waitSeconds: arguments.wait,
    instructionsTokens: instructionsTokens, promptTokens: withInstructions,
    coldPlainSeconds: median(cold.filter { $0.mode == "plain" }.map(\.firstSnapshotSeconds)),
    coldPrewarmedSeconds: median(cold.filter { $0.mode == "prewarmed" }.map(\.firstSnapshotSeconds)),
    warmPlainSeconds: median(warm["plain"] ?? []), warmPrewarmedSeconds: median(warm["prewarmed"] ?? []),
    coldRuns: cold)
}

/// One cold measurement, in the child process: nothing loaded yet.
func runPrewarmChild(_ arguments: Arguments, mode: String) async throws -> ChildResult {
  let start = clock.now
  let weights = try LanguageModelWeights.named(arguments.model)
  let model = SystemLanguageModel(weights: weights, contextSize: 4096)
  let session = LanguageModelSession(model: model, instructions: Texts.longInstructions)
  if mode == "prewarmed" {
    session.prewarm()
    try await Task.sleep(for: .seconds(arguments.wait))
  }
  let requested = clock.now
  let timing = try await timeTextStream(session, prompt: Texts.analysisRequest, options: greedy(4))
  return ChildResult(
    mode: mode, firstSnapshotSeconds: timing.firstSnapshot + (mode == "plain" ? (requested - start).seconds : 0),
    sinceStartSeconds: (requested - start).seconds + timing.firstSnapshot)
}

/// Runs this executable as `prewarm --child MODE` and reads the JSON line it prints.
private func runChild(_ arguments: Arguments, mode: String) throws -> ChildResult {
  guard let executable = Bundle.main.executableURL else { throw BenchmarkError("cannot find this executable") }
  let process = Process()
  process.executableURL = executable
  process.arguments = [
    "prewarm", "--model", arguments.model, "--wait", String(arguments.wait), "--child", mode,
  ]
  let output = Pipe()
  process.standardOutput = output
  try process.runWithDefaultSignals()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0,
    let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last
  else {
    throw BenchmarkError("the \(mode) child process failed (status \(process.terminationStatus))")
  }
  let decoder = JSONDecoder()
  decoder.keyDecodingStrategy = .convertFromSnakeCase
  return try decoder.decode(ChildResult.self, from: Data(line.utf8))
}
