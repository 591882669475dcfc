import Foundation
import LanguageModels

/// A failure the benchmark reports on stderr before exiting with status 2.
struct BenchmarkError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The command line: a subcommand and its options.
struct Arguments {
  var command: String
  var model = "qwen-1.5b"
  var promptTokens = 512
  var generate = 128
  var runs = 3
  var wait = 10.0
  var child: String?
  var printPrompt = false

  static let usage = """
    usage: LanguageModelBenchmark COMMAND --model NAME [options]

    Each command prints one JSON line on stdout; progress goes to stderr.
      speed    --prompt-tokens 512 --generate 128   prompt and generation tokens/s, streamed
               (--print-prompt: only the rendered prompt, for llama.cpp's CLI)
      grammar  --runs 3     the same analysis as free text (JSON asked for) and under a @Generable grammar
               (--print-prompt: only the rendered prompt and the JSON Schema, for llama.cpp's CLI)
      prewarm  --runs 3 --wait 10  time to first snapshot without and with session.prewarm()
      schema   --runs 3     includeSchemaInPrompt true vs false: prompt tokens and latency
    Models: qwen-1.5b (default), qwen-0.5b, smollm-135m, from VOICENOTES_MODELS.
    """

  static func parse(_ arguments: [String]) throws -> Arguments {
    guard let command = arguments.first, !command.hasPrefix("-") else { throw BenchmarkError(usage) }
    var result = Arguments(command: command)
    var rest = arguments.dropFirst()
    func value(_ flag: String) throws -> String {
      guard let value = rest.popFirst() else { throw BenchmarkError("\(flag) needs a value\n\n\(usage)") }
      return value
    }
    func number(_ flag: String) throws -> Int {
      guard let number = Int(try value(flag)), number > 0 else {
        throw BenchmarkError("\(flag) needs a positive whole number")
      }
      return number
    }
    while let flag = rest.popFirst() {
      switch flag {
      case "--model": result.model = try value(flag)
      case "--prompt-tokens": result.promptTokens = try number(flag)
      case "--generate": result.generate = try number(flag)
      case "--runs": result.runs = try number(flag)
      case "--wait":
        guard let seconds = Double(try value(flag)), seconds >= 0 else {
          throw BenchmarkError("--wait needs a number of seconds")
        }
        result.wait = seconds
      case "--child": result.child = try value(flag)
      case "--print-prompt": result.printPrompt = true
      case "-h", "--help": throw BenchmarkError(usage)
      default: throw BenchmarkError("unknown option \(flag)\n\n\(usage)")
      }
    }
    return result
  }
}

/// Monotonic time.
let clock = ContinuousClock()

extension Duration {
  /// The duration in seconds.
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// The median of `values` (0 for none).
func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return 0 }
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// A progress line on stderr.
func log(_ message: String) {
  FileHandle.standardError.write(Data("LanguageModelBenchmark: \(message)\n".utf8))
}

/// Writes `value` as one line of JSON on stdout (unbuffered).
func emit(_ value: some Encodable) throws {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  encoder.keyEncodingStrategy = .convertToSnakeCase
  FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
}

/// Greedy options: the same prompt always gives the same tokens, so runs compare.
func greedy(_ maximumTokens: Int) -> GenerationOptions {
  GenerationOptions(sampling: .greedy, maximumResponseTokens: maximumTokens)
}

/// The model called `name`, loaded (loading is timed separately from everything else).
func loadModel(_ name: String) async throws -> (model: SystemLanguageModel, seconds: Double) {
  let weights = try LanguageModelWeights.named(name)
  let model = SystemLanguageModel(weights: weights, contextSize: 4096)
  guard model.isAvailable else {
    throw BenchmarkError(
      "\(name) is not available (\(model.availability)); install it with `voicenotes models install \(name)` "
        + "and set VOICENOTES_MODELS")
  }
  let start = clock.now
  _ = try await model.tokenCount(for: "load")  // the first use loads the weights
  return (model, (clock.now - start).seconds)
}

/// The text the session evaluates for `prompt`: the ChatML chat template, which all three
/// models use and which llama.cpp applies for them (no default system message).
func chatML(instructions: String?, prompt: String) -> String {
  var text = ""
  if let instructions { text += "<|im_start|>system\n\(instructions)<|im_end|>\n" }
  return text + "<|im_start|>user\n\(prompt)<|im_end|>\n<|im_start|>assistant\n"
}

/// Leaves a short unrelated conversation in the engine's KV cache, so that the next request
/// shares only its first token (`<|im_start|>`) with what is cached and evaluates the rest.
func evictCache(_ model: SystemLanguageModel) async throws {
  _ = try await LanguageModelSession(model: model).respond(to: "Reply with OK.", options: greedy(1))
}

/// The times of a streamed response, from just before the request.
struct StreamTiming {
  /// Seconds to the first snapshot: the prompt's evaluation plus the first generated token.
  var firstSnapshot: Double
  /// Seconds to the last snapshot.
  var lastSnapshot: Double
  /// Seconds until the final response was complete.
  var total: Double
  /// Snapshots seen: one per generated token whose text completes a character.
  var snapshots: Int
  /// The final text.
  var text: String
}

/// Streams `prompt` as text on `session` and times each snapshot.
func timeTextStream(_ session: LanguageModelSession, prompt: String, options: GenerationOptions) async throws
  -> StreamTiming
{
  let start = clock.now
  var first: ContinuousClock.Instant?
  var last = start
  var snapshots = 0
  let stream = session.streamResponse(to: prompt, options: options)
  for try await _ in stream {
    let now = clock.now
    if first == nil { first = now }
    last = now
    snapshots += 1
  }
  let response = try await stream.collect()
  let end = clock.now
  guard let first else { throw BenchmarkError("the model produced no text") }
  return StreamTiming(
    firstSnapshot: (first - start).seconds, lastSnapshot: (last - start).seconds, total: (end - start).seconds,
    snapshots: snapshots, text: response.content)
}

/// The generated text of a response: the transcript's last response entry (raw JSON for a
/// guided response).
func responseText(_ entries: ArraySlice<Transcript.Entry>) -> String {
  for entry in entries.reversed() {
    if case .response = entry { return entry.description }
  }
  return ""
}

/// `text` without a Markdown code fence around it.
func withoutCodeFence(_ text: String) -> String {
  var lines = text.trimmingCharacters(in: .whitespacesAndNewlines).split(
    separator: "\n", omittingEmptySubsequences: false)
  if lines.first?.hasPrefix("```") == true { lines.removeFirst() }
  if lines.last?.hasPrefix("```") == true { lines.removeLast() }
  return lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The engine threads, as `SystemLanguageModel` chooses them.
var engineThreads: Int {
  ProcessInfo.processInfo.environment["VOICENOTES_THREADS"].flatMap(Int.init)
    ?? min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8)
}
