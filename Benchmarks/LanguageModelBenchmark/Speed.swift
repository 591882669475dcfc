import Foundation
import LanguageModels

/// `speed`: prompt and generation throughput of a streamed text response, the figures llama.cpp's
/// `llama-bench` reports as pp512 and tg128.
struct SpeedResult: Encodable {
  var command = "speed"
  var model: String
  var threads: Int
  /// Seconds to load the weights.
  var loadSeconds: Double
  /// Tokens of the rendered prompt (chat template, instructions, prompt).
  var promptTokens: Int
  /// Of those, the tokens evaluated: all but the first, `<|im_start|>`, which the KV cache holds
  /// from the warm-up request.
  var promptTokensEvaluated: Int
  /// Seconds from the request to the first snapshot: the prompt's evaluation, sampling the first
  /// token, and evaluating it (the engine evaluates a token before it reports its text).
  var firstSnapshotSeconds: Double
  /// `firstSnapshotSeconds` less one generation step (the median step below): the prompt alone.
  var promptSeconds: Double
  var promptTokensPerSecond: Double
  /// Generated tokens are counted as snapshots: each generated token is sampled, evaluated and
  /// reported as one snapshot (a token that ends inside a UTF-8 character would not be; English
  /// text has none). Generation speed is measured between the first and the last snapshot.
  var generatedSnapshots: Int
  /// The output re-tokenized with `tokenCount(for:)`, as a check on the snapshot count.
  var generatedTokensRetokenized: Int
  var generationSeconds: Double
  var generationTokensPerSecond: Double
  var tokenCounting = "snapshots"
  var warmupSeconds: Double
  var outputPreview: String
}

/// `speed --print-prompt`: the rendered prompt `speed` evaluates, for llama.cpp's CLI to run too.
struct SpeedPrompt: Encodable {
  var command = "speed-prompt"
  var model: String
  var promptTokens: Int
  var renderedPrompt: String
}

func runSpeedPrompt(_ arguments: Arguments) async throws -> SpeedPrompt {
  let (model, _) = try await loadModel(arguments.model)
  let prompt = try await fitPrompt(model, instructions: Texts.writerInstructions, tokens: arguments.promptTokens)
  return SpeedPrompt(
    model: arguments.model, promptTokens: prompt.tokens,
    renderedPrompt: chatML(instructions: Texts.writerInstructions, prompt: prompt.text))
}

func runSpeed(_ arguments: Arguments) async throws -> SpeedResult {
  log("speed: loading \(arguments.model)")
  let (model, loadSeconds) = try await loadModel(arguments.model)
  guard arguments.promptTokens + arguments.generate + 16 < model.contextSize else {
    throw BenchmarkError("--prompt-tokens plus --generate must fit the \(model.contextSize)-token context")
  }

  let prompt = try await fitPrompt(model, instructions: Texts.writerInstructions, tokens: arguments.promptTokens)

  // A warm-up request first, as llama-bench warms up with a whole prompt batch: it touches every
  // weight and the compute buffers. It has no instructions, so the measured request shares only
  // its first token with the KV cache.
  let warmStart = clock.now
  _ = try await LanguageModelSession(model: model).respond(to: prompt.text, options: greedy(2))
  let warmupSeconds = (clock.now - warmStart).seconds

  log("speed: \(prompt.tokens)-token prompt, generating \(arguments.generate) tokens")
  let session = LanguageModelSession(model: model, instructions: Texts.writerInstructions)
  let timing = try await timeTextStream(session, prompt: prompt.text, options: greedy(arguments.generate))

  let steps = max(timing.snapshots - 1, 0)
  let generationSeconds = timing.lastSnapshot - timing.firstSnapshot
  let stepSeconds = steps > 0 ? generationSeconds / Double(steps) : 0
  let promptSeconds = max(timing.firstSnapshot - stepSeconds, 1e-9)
  let evaluated = prompt.tokens - 1
  return SpeedResult(
    model: arguments.model, threads: engineThreads, loadSeconds: loadSeconds, promptTokens: prompt.tokens,
    promptTokensEvaluated: evaluated, firstSnapshotSeconds: timing.firstSnapshot, promptSeconds: promptSeconds,
    promptTokensPerSecond: Double(evaluated) / promptSeconds, generatedSnapshots: timing.snapshots,
    generatedTokensRetokenized: try await model.tokenCount(for: timing.text), generationSeconds: generationSeconds,
    generationTokensPerSecond: steps > 0 ? Double(steps) / generationSeconds : 0, warmupSeconds: warmupSeconds,
    outputPreview: String(timing.text.prefix(160)))
}

/// The report request with as many words of ``Texts/longNotes`` as fit in `tokens` tokens once
/// rendered with the chat template and `instructions`.
func fitPrompt(_ model: SystemLanguageModel, instructions: String, tokens: Int) async throws -> (
  text: String, tokens: Int
) {
  let words = Texts.longNotes.split(separator: " ", omittingEmptySubsequences: false)
  func prompt(_ count: Int) -> String { Texts.reportRequest + words.prefix(count).joined(separator: " ") }
  func size(_ count: Int) async throws -> Int {
    try await model.tokenCount(for: chatML(instructions: instructions, prompt: prompt(count)))
  }
  guard try await size(words.count) >= tokens else {
    throw BenchmarkError("the benchmark's text is shorter than \(tokens) tokens; ask for fewer")
  }
  // The most words whose rendering stays within `tokens`.
  var low = 0
  var high = words.count
  while low < high {
    let middle = (low + high + 1) / 2
    if try await size(middle) <= tokens { low = middle } else { high = middle - 1 }
  }
  return (prompt(low), try await size(low))
}
