import Foundation
import LanguageModels
import ModelSupport
import Synchronization
import VoiceNotes

/// Seconds per note of `NoteAnalyzer` on real transcripts, this build against the baseline: the
/// analysis as it was when the speed issue was filed (the tree, engines and AnalysisEval that
/// scripts/analysis-baseline.sh builds from the project's history), in fresh processes.
///
/// Transcripts: the dev set's notes joined, in file order, into notes of about one minute (150
/// words) and five minutes (750 words) of speech. Each run is a child process that analyses two
/// notes of one length: the first is a cold note (a fresh process; for "after", with no state
/// file), the second a warm note (same process); an "after" child with the state file the
/// previous child wrote analyses the first note alone (warm-file). "Before" is the baseline's
/// AnalysisEval on the same two notes. Children alternate before/after; the table gives medians
/// and ratios. It also gives where the time of an "after" note goes and the grammar's cost per
/// token (grammar seconds over the forward pass plus sampler seconds of the same tokens: what an
/// unconstrained token costs). Last, both AnalysisEvals score the dev set, half by half and
/// alternating, for seconds per note beside the quality figures.
struct AnalysisBenchmark {
  let models: [String]
  let runs: Int
  let notesFile: URL
  /// The baseline's AnalysisEval.
  let baseline: URL
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
            let child =
              mode == "before"
              ? try runBaseline(model: name, length: length, notes: [first, second])
              : try runChild(
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
      try compareOnDevSet(name)
    }
  }

  /// Both AnalysisEvals on the dev set, half A then half B, the baseline first in each: seconds
  /// per note (median over the notes of both halves) and each half's quality row.
  private func compareOnDevSet(_ name: String) throws {
    var seconds: [String: [Double]] = [:]
    var rows: [String] = []
    var header = ""
    let current = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("AnalysisEval")
    for half in ["A", "B"] {
      for (label, program) in [("before", baseline), ("after", current)] {
        let (output, errors) = try Self.run(program, ["--half", half, notesFile.path, name])
        let lines = output.split(separator: "\n").map(String.init)
        guard let index = lines.firstIndex(where: { $0.hasPrefix("model / notes") }), index + 1 < lines.count else {
          throw BenchmarkError("\(program.path) printed no figures for half \(half)")
        }
        // The baseline's table has fewer columns: each row comes under its own header.
        if label == "before" || header != lines[index] { rows.append("           " + lines[index]) }
        header = lines[index]
        rows.append("\(label) \(half)  " + lines[index + 1])
        seconds[label, default: []] += Self.noteSeconds(in: errors)
        FileManager.default.fputs("analysis: dev set half \(half), \(label): done")
      }
    }
    let before = Statistics.median(seconds["before"] ?? [])
    let after = Statistics.median(seconds["after"] ?? [])
    print("")
    print("analysis, \(name), dev set (\(notesFile.lastPathComponent)), before = the baseline's AnalysisEval:")
    print(
      String(
        format: "seconds per note, median of %d notes: %.1f before, %.1f after, ratio %.2f",
        seconds["after"]?.count ?? 0,
        before, after, after / before))
    for row in rows { print(row) }
  }

  /// The seconds of each note in an AnalysisEval's progress lines ("[model 3/19] d05 12.6 s").
  static func noteSeconds(in progress: String) -> [Double] {
    progress.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("["), line.hasSuffix(" s") else { return nil }
      return Double(line.dropLast(2).split(separator: " ").last ?? "")
    }
  }

  /// Runs `program` with `arguments`, returning what it printed on standard output and error.
  static func run(_ program: URL, _ arguments: [String]) throws -> (output: String, errors: String) {
    let process = Process()
    process.executableURL = program
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.runWithDefaultSignals()
    // Standard error is read on its own thread so that neither pipe fills while the other is read.
    let errorText = Mutex("")
    let finished = DispatchSemaphore(value: 0)
    Thread {
      let data = errors.fileHandleForReading.readDataToEndOfFile()
      errorText.withLock { $0 = String(decoding: data, as: UTF8.self) }
      finished.signal()
    }.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    finished.wait()
    guard process.terminationStatus == 0 else {
      throw BenchmarkError("\(program.path) failed (status \(process.terminationStatus))")
    }
    return (String(decoding: data, as: UTF8.self), errorText.withLock { $0 })
  }

  /// The baseline's AnalysisEval on `notes`, as one before child: a sample per note, with only
  /// its seconds (the baseline reports no more).
  private func runBaseline(model: String, length: String, notes: [String]) throws -> [Sample] {
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("voicenotes-baseline-\(UUID()).jsonl")
    defer { try? FileManager.default.removeItem(at: input) }
    let lines = try notes.enumerated().map { index, note in
      String(
        decoding: try JSONSerialization.data(withJSONObject: [
          "id": "n\(index + 1)", "transcript": note, "people": [String](), "actions": [[String: String]](),
        ]), as: UTF8.self)
    }
    try lines.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
    let (_, errors) = try Self.run(baseline, [input.path, model])
    let seconds = Self.noteSeconds(in: errors)
    guard seconds.count == notes.count else {
      throw BenchmarkError("the baseline analysed \(seconds.count) of \(notes.count) notes:\n\(errors)")
    }
    return seconds.enumerated().map { position, seconds in
      Sample(
        mode: "before", length: length, position: position, seconds: seconds, promptTokens: 0,
        promptTokensEvaluated: 0, promptSeconds: 0, generatedTokens: 0, decodeSeconds: 0, samplingSeconds: 0,
        grammarSeconds: 0, grammarRejections: 0, forcedTokens: 0,
        prefixState: "baseline", requests: 1)
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
      "forward pass / sampler / grammar ms per generated token, tokens the grammar rejected, tokens it forced):"
    )
    for mode in ["after-cold", "after-file"] {
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
                "  %-10@ %@ note %d: %4.0f of %4.0f tokens, %5.1f s; %4.0f tokens; %5.1f / %4.2f / %4.2f ms; %3.0f; %3.0f",
              mode as NSString, length as NSString, position + 1, med { Double($0.promptTokensEvaluated) },
              med { Double($0.promptTokens) }, med(\.promptSeconds), med { Double($0.generatedTokens) },
              perToken(\.decodeSeconds), perToken(\.samplingSeconds), perToken(\.grammarSeconds),
              med { Double($0.grammarRejections) }, med { Double($0.forcedTokens) }))
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
    try process.runWithDefaultSignals()
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
    let backend = RecordingBackend(LlamaBackend(weights: weights))
    let analyzer = NoteAnalyzer(model: SystemLanguageModel(backend: backend))
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
