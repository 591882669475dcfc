// The app benchmark (`make bench`): how long the note pipeline takes per minute of audio with each
// language model, and how fast search is over 100,000 notes. Run from the release build:
//
//   AppBenchmark search [--notes N] [--rounds R]
//   AppBenchmark semantic [--notes N] [--rounds R] [--transcripts FILE.jsonl]   (search by meaning; needs the minilm model)
//   AppBenchmark pipeline [--models qwen-1.5b,qwen-0.5b] [--runs R] [FILE...]
//   AppBenchmark library [FOLDER] [--notes N]   (makes a generated library, prints its path; for the web benchmark)
//   AppBenchmark analysis --baseline EXECUTABLE [--models qwen-1.5b] [--runs R] [--notes FILE.jsonl] [--lengths 1min,5min]
//     (seconds per note against the baseline's AnalysisEval, which scripts/analysis-baseline.sh builds and names)
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("AppBenchmark: \(message)\n".utf8))
  exit(2)
}

let cache = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/voicenotes/bench")
do {
  switch arguments.first {
  case "search":
    let notes = Int(option("--notes") ?? "") ?? 100_000
    let rounds = Int(option("--rounds") ?? "") ?? 20
    try await SearchBenchmark(noteCount: notes, rounds: rounds, cache: cache).run()
  case "semantic":
    let notes = Int(option("--notes") ?? "") ?? 100_000
    let rounds = Int(option("--rounds") ?? "") ?? 20
    var benchmark = SemanticBenchmark(noteCount: notes, rounds: rounds, cache: cache)
    benchmark.transcriptsFile = option("--transcripts").map { URL(fileURLWithPath: $0) }
    try await benchmark.run()
  case "library":
    let notes = Int(option("--notes") ?? "") ?? 100_000
    let folder = arguments.dropFirst().first { !$0.hasPrefix("--") && Int($0) == nil }.map {
      URL(fileURLWithPath: $0, isDirectory: true)
    }
    let benchmark = SearchBenchmark(noteCount: notes, rounds: 0, cache: cache)
    print(try await benchmark.prepareLibrary(at: folder).path)
  case "pipeline":
    let models = (option("--models") ?? "qwen-1.5b,qwen-0.5b").split(separator: ",").map(String.init)
    let runs = Int(option("--runs") ?? "") ?? 3
    let valued: Set<String> = ["--models", "--runs"]
    var files: [URL] = []
    var index = 1
    while index < arguments.count {
      if valued.contains(arguments[index]) {
        index += 2
        continue
      }
      files.append(URL(fileURLWithPath: arguments[index]))
      index += 1
    }
    try await PipelineBenchmark(models: models, runs: runs, files: files, cache: cache).run()
  case "analysis":
    let models = (option("--models") ?? "qwen-1.5b").split(separator: ",").map(String.init)
    let runs = Int(option("--runs") ?? "") ?? 3
    let notes = URL(fileURLWithPath: option("--notes") ?? "../shared/eval/analysis-dev.jsonl")
    guard let baseline = option("--baseline") else {
      fail("analysis needs --baseline EXECUTABLE: the path scripts/analysis-baseline.sh prints")
    }
    var benchmark = AnalysisBenchmark(
      models: models, runs: runs, notesFile: notes, baseline: URL(fileURLWithPath: baseline))
    if let lengths = option("--lengths") { benchmark.lengths = lengths.split(separator: ",").map(String.init) }
    try await benchmark.run()
  case "analysis-child":
    guard arguments.count >= 5 else { fail("usage: AppBenchmark analysis-child MODEL MODE LENGTH NOTES.json") }
    try await AnalysisBenchmark.child(
      model: arguments[1], mode: arguments[2], length: arguments[3], notesPath: arguments[4])
  default:
    fail(
      "usage: AppBenchmark search [--notes N] [--rounds R] | semantic [--notes N] [--rounds R] [--transcripts FILE.jsonl] | pipeline [--models A,B] [--runs R] [FILE...] "
        + "| library [FOLDER] [--notes N] | analysis --baseline EXECUTABLE [--models A,B] [--runs R] [--notes FILE.jsonl]"
    )
  }
} catch {
  fail((error as? LocalizedError)?.errorDescription ?? "\(error)")
}
