import Foundation
import LanguageModels
import Synchronization
import VoiceNotes

/// Seconds per note of `NoteAnalyzer` on real transcripts, before and after the shared prefix
/// (instructions and schema first, its KV state saved in a state file) and the skipping of the
/// text the grammar forces, in fresh processes.
///
/// Transcripts: the dev set's notes joined, in file order, into notes of about one minute (150
/// words) and five minutes (750 words) of speech. Each run is a child process that analyses two
/// notes of one length: the first is a cold note (a fresh process; for "after", with no state
/// file), the second a warm note (same process); an "after" child with the state file the
/// previous child wrote analyses the first note alone (warm-file). "Before" runs the earlier
/// layout (the schema after the transcript) with no state files, every token sampled. Children
/// alternate before/after; the table gives medians and
/// ratios. It also gives where the time of an "after" note goes and the grammar's cost per token
/// (grammar seconds over the forward pass plus sampler seconds of the same tokens: what an
/// unconstrained token costs).
struct AnalysisBenchmark {
  let models: [String]
  let runs: Int
  let notesFile: URL
  /// `1min`, `5min` or both.
  var lengths = ["1min", "5min"]

  /// One analysed note, as a child reports it.
  struct Sample: Codable {
    var mode: String
    var length: String
    var position: Int
    var seconds: Double
    var promptTokens: Int
    var promptTokensEvaluated: Int
    var promptSeconds: Double
    var generatedTokens: Int
    var decodeSeconds: Double
    var samplingSeconds: Double
    var grammarSeconds: Double
    var grammarRejections: Int
    var forcedTokens: Int
    var draftedTokens: Int
    var acceptedDraftTokens: Int
    var prefixState: String
    var requests: Int
  }

  func run() async throws {
    let notes = try transcripts()
    print(
      String(
        format: "analysis: %d one-minute notes (~%d words), %d five-minute notes (~%d words), %d runs",
        notes["1min"]!.count, words(notes["1min"]![0]), notes["5min"]!.count, words(notes["5min"]![0]), runs))
    for name in models {
      guard let weights = try? LanguageModelWeights.named(name) else { throw BenchmarkError("unknown model \(name)") }
      guard weights.isInstalled() else {
        throw BenchmarkError("\(name) is not installed: run `voicenotes models install \(name)`")
      }
      let states = FileManager.default.temporaryDirectory.appendingPathComponent("voicenotes-states-\(UUID())")
      defer { try? FileManager.default.removeItem(at: states) }
      var samples: [Sample] = []
      for round in 0..<runs {
        for length in lengths {
          let pair = notes[length]!
          let first = pair[round % pair.count]
          let second = pair[(round + 1) % pair.count]
          let order = round % 2 == 0 ? ["before", "after-cold", "after-file"] : ["after-cold", "after-file", "before"]
          for mode in order {
            if mode == "after-cold" { try? FileManager.default.removeItem(at: states) }
            // A warm-file child's second note would be one more warm note: it analyses one.
            let child = try runChild(
              model: name, mode: mode, length: length, notes: mode == "after-file" ? [first] : [first, second],
              states: states)
            samples += child
            for sample in child {
              FileHandle.standardError.write(try JSONEncoder().encode(sample) + Data("\n".utf8))
            }
            FileManager.default.fputs(
              "analysis: \(name) run \(round + 1)/\(runs) \(length) \(mode): "
                + child.map { String(format: "%.1f s (%@)", $0.seconds, $0.prefixState as NSString) }.joined(
                  separator: ", "))
          }
        }
      }
      report(name, samples)
    }
  }

  private func report(_ name: String, _ samples: [Sample]) {
    func median(_ length: String, _ mode: String, position: Int) -> Double {
      Statistics.median(
        samples.filter { $0.length == length && $0.mode == mode && $0.position == position }.map(\.seconds))
    }
    print("")
    print("analysis, \(name): seconds per note (medians of \(runs) runs), before / after, ratio after/before")
    print("transcript   first note, fresh process        fresh process, state file     later notes, same process")
    for length in lengths {
      let coldBefore = median(length, "before", position: 0)
      let coldAfter = median(length, "after-cold", position: 0)
      let fileAfter = median(length, "after-file", position: 0)
      let warmBefore = median(length, "before", position: 1)
      let warmAfter = Statistics.median(
        samples.filter { $0.length == length && $0.mode.hasPrefix("after") && $0.position == 1 }.map(\.seconds))
      print(
        (length == "1min" ? "1 minute " : "5 minutes")
          + String(
            format: "    %5.1f / %5.1f = %4.2f            %5.1f / %5.1f = %4.2f           %5.1f / %5.1f = %4.2f",
            coldBefore, coldAfter, coldAfter / coldBefore, coldBefore, fileAfter, fileAfter / coldBefore, warmBefore,
            warmAfter, warmAfter / warmBefore))
    }
    print("where the time goes (medians per note; prompt tokens evaluated of all, prompt s, generated tokens,")
    print(
      "forward pass / sampler / grammar ms per generated token, tokens the grammar rejected, tokens it forced, drafted tokens taken of those tried):"
    )
    for mode in ["before", "after-cold", "after-file"] {
      for length in lengths {
        for position in [0, 1] {
          let group = samples.filter { $0.mode == mode && $0.length == length && $0.position == position }
          guard !group.isEmpty else { continue }
          func med(_ value: (Sample) -> Double) -> Double { Statistics.median(group.map(value)) }
          func perToken(_ value: (Sample) -> Double) -> Double {
            med { $0.generatedTokens > 0 ? value($0) * 1000 / Double($0.generatedTokens) : 0 }
          }
          print(
            String(
              format:
                "  %-10@ %@ note %d: %4.0f of %4.0f tokens, %5.1f s; %4.0f tokens; %5.1f / %4.2f / %4.2f ms; %3.0f; %3.0f; %3.0f of %3.0f",
              mode as NSString, length as NSString, position + 1, med { Double($0.promptTokensEvaluated) },
              med { Double($0.promptTokens) }, med(\.promptSeconds), med { Double($0.generatedTokens) },
              perToken(\.decodeSeconds), perToken(\.samplingSeconds), perToken(\.grammarSeconds),
              med { Double($0.grammarRejections) }, med { Double($0.forcedTokens) },
              med { Double($0.acceptedDraftTokens) }, med { Double($0.draftedTokens) }))
        }
      }
    }
    let guided = samples.filter { $0.generatedTokens > 0 }
    let overheads = guided.map { $0.grammarSeconds / ($0.decodeSeconds + $0.samplingSeconds) * 100 }
    print(
      String(
        format:
          "guided decoding overhead on NoteAnalysis: %.2f%% per token (median of %d notes; grammar time over forward pass + sampler time of the same tokens)",
        Statistics.median(overheads), overheads.count))
  }

  /// Runs this executable as `analysis --child` and reads the JSON lines it prints.
  private func runChild(model: String, mode: String, length: String, notes: [String], states: URL) throws -> [Sample] {
    guard let executable = Bundle.main.executableURL else { throw BenchmarkError("cannot find this executable") }
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("voicenotes-notes-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: input) }
    try JSONEncoder().encode(notes).write(to: input)
    let process = Process()
    process.executableURL = executable
    process.arguments = ["analysis-child", model, mode, length, input.path]
    var environment = ProcessInfo.processInfo.environment
    environment["VOICENOTES_CACHE"] = states.path
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchmarkError("the \(mode) child process failed (status \(process.terminationStatus))")
    }
    return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
      try JSONDecoder().decode(Sample.self, from: Data($0.utf8))
    }
  }

  /// The dev set's transcripts joined into one-minute and five-minute notes.
  private func transcripts() throws -> [String: [String]] {
    let texts = try DevTranscripts.read(notesFile)
    func joined(words target: Int, count: Int) -> [String] {
      var notes: [String] = []
      var current: [String] = []
      var index = 0
      while notes.count < count {
        current.append(texts[index % texts.count])
        index += 1
        if words(current.joined(separator: " ")) >= target {
          notes.append(current.joined(separator: " "))
          current = []
        }
      }
      return notes
    }
    return ["1min": joined(words: 150, count: 4), "5min": joined(words: 750, count: 4)]
  }

  private func words(_ text: String) -> Int { text.split(whereSeparator: \.isWhitespace).count }

  /// The child: analyses each note of the file given, printing one JSON line per note.
  static func child(model name: String, mode: String, length: String, notesPath: String) async throws {
    let notes = try JSONDecoder().decode([String].self, from: Data(contentsOf: URL(fileURLWithPath: notesPath)))
    let weights = try LanguageModelWeights.named(name)
    let before = mode == "before"
    let backend = RecordingBackend(LlamaBackend(weights: weights, savesPromptStates: !before, decodesAhead: !before))
    let analyzer = NoteAnalyzer(
      model: SystemLanguageModel(backend: backend), layout: before ? .schemaAfterTranscript : .schemaInInstructions)
    for (position, note) in notes.enumerated() {
      backend.replies.withLock { $0 = [] }
      let (_, seconds) = try await Statistics.time { try await analyzer.analyze(note) }
      let replies = backend.replies.withLock { $0 }
      let timings = replies.compactMap(\.timing)
      if ProcessInfo.processInfo.arguments.contains("--show-output") {
        for reply in replies { FileHandle.standardError.write(Data((reply.text + "\n").utf8)) }
      }
      let sample = Sample(
        mode: mode, length: length, position: position, seconds: seconds,
        promptTokens: replies.map(\.promptTokens).reduce(0, +),
        promptTokensEvaluated: timings.map(\.promptTokensEvaluated).reduce(0, +),
        promptSeconds: timings.map(\.promptSeconds).reduce(0, +),
        generatedTokens: replies.map(\.generatedTokens).reduce(0, +),
        decodeSeconds: timings.map(\.decodeSeconds).reduce(0, +),
        samplingSeconds: timings.map(\.samplingSeconds).reduce(0, +),
        grammarSeconds: timings.map(\.grammarSeconds).reduce(0, +),
        grammarRejections: timings.map(\.grammarRejections).reduce(0, +),
        forcedTokens: timings.map(\.forcedTokens).reduce(0, +),
        draftedTokens: timings.map(\.draftedTokens).reduce(0, +),
        acceptedDraftTokens: timings.map(\.acceptedDraftTokens).reduce(0, +),
        prefixState: timings.map { "\($0.prefixState)" }.joined(separator: "+"), requests: replies.count)
      FileHandle.standardOutput.write(try JSONEncoder().encode(sample) + Data("\n".utf8))
    }
  }
}

/// The local backend, keeping every reply it gives so the benchmark can read their timings.
final class RecordingBackend: LanguageModelBackend {
  let inner: LlamaBackend
  let replies = Mutex<[LanguageModelReply]>([])

  init(_ inner: LlamaBackend) { self.inner = inner }

  var displayName: String { inner.displayName }
  var availability: SystemLanguageModel.Availability { inner.availability }
  var unavailabilityExplanation: String? { inner.unavailabilityExplanation }
  func contextSize() async throws -> Int { try await inner.contextSize() }
  func tokenCount(for text: String) async throws -> Int { try await inner.tokenCount(for: text) }
  func prewarm(_ request: LanguageModelRequest) async { await inner.prewarm(request) }
  func respond(to request: LanguageModelRequest, onText: @escaping @Sendable (String) -> Void) async throws
    -> LanguageModelReply
  {
    let reply = try await inner.respond(to: request, onText: onText)
    replies.withLock { $0.append(reply) }
    return reply
  }
}
