// The analysis-quality evaluation (`make eval`): runs NoteAnalyzer on a JSONL file of transcripts
// with what a careful reader would extract, and prints the metrics ../shared/eval/README.md names,
// for each model given, on the whole file and on each half (A: the 1st, 3rd, 5th... notes; B: the
// others), so that changes tuned on one half can be checked on the other. `--half A` runs one half.
import Foundation
import LanguageModels
import VoiceNotes

var arguments = Array(CommandLine.arguments.dropFirst())
let verbose = arguments.contains("--verbose")
arguments.removeAll { $0 == "--verbose" }
var layout = NoteAnalyzer.PromptLayout.schemaInInstructions
if let index = arguments.firstIndex(of: "--schema-after-transcript") {
  // The earlier layout (the schema after the transcript), for comparing the two.
  layout = .schemaAfterTranscript
  arguments.remove(at: index)
}
var onlyHalf: String?
if let index = arguments.firstIndex(of: "--half"), index + 1 < arguments.count {
  onlyHalf = arguments[index + 1]
  arguments.removeSubrange(index...index + 1)
}
guard let path = arguments.first, onlyHalf == nil || onlyHalf == "A" || onlyHalf == "B" else {
  FileHandle.standardError.write(
    Data("usage: AnalysisEval [--verbose] [--half A|B] [--schema-after-transcript] FILE.jsonl [MODEL...]\n".utf8))
  exit(2)
}
let modelNames = arguments.dropFirst().isEmpty ? ["qwen-1.5b", "qwen-0.5b"] : Array(arguments.dropFirst())
/// The half an example belongs to, by its position in the file.
func half(_ position: Int) -> String { position % 2 == 0 ? "A" : "B" }

var examples: [(position: Int, example: EvalExample)]
do {
  examples = try EvalExample.load(URL(fileURLWithPath: path)).enumerated().map { ($0.offset, $0.element) }
  if let onlyHalf { examples = examples.filter { half($0.position) == onlyHalf } }
} catch {
  FileHandle.standardError.write(Data("AnalysisEval: \(path): \(error)\n".utf8))
  exit(1)
}

var reports: [(String, EvalScore)] = []
for name in modelNames {
  guard let weights = try? LanguageModelWeights.named(name) else {
    FileHandle.standardError.write(Data("AnalysisEval: unknown model \(name)\n".utf8))
    exit(2)
  }
  let model = SystemLanguageModel(weights: weights)
  guard model.isAvailable else {
    FileHandle.standardError.write(
      Data("AnalysisEval: \(name) is not installed; run `voicenotes models install \(name)`\n".utf8))
    exit(1)
  }
  let analyzer = NoteAnalyzer(model: model, layout: layout)
  var score = EvalScore()
  var halves = ["A": EvalScore(), "B": EvalScore()]
  for (index, (position, example)) in examples.enumerated() {
    let started = Date()
    let promptTokens =
      (try? await model.tokenCount(
        for: NoteAnalyzer.instructionsWithSchema.text + example.transcript)) ?? 0
    do {
      let analysis = try await analyzer.analyze(example.transcript)
      let seconds = Date().timeIntervalSince(started)
      let generated = (try? await model.tokenCount(for: analysis.generatedContent.jsonString)) ?? 0
      score.add(example, analysis, seconds: seconds, promptTokens: promptTokens, generatedTokens: generated)
      halves[half(position)]?.add(
        example, analysis, seconds: seconds, promptTokens: promptTokens, generatedTokens: generated)
      FileHandle.standardError.write(
        Data(String(format: "[%@ %d/%d] %@ %.1f s\n", name, index + 1, examples.count, example.id, seconds).utf8))
      if verbose { FileHandle.standardError.write(Data("  \(analysis.generatedContent.jsonString)\n".utf8)) }
    } catch {
      score.addFailure(example)
      halves[half(position)]?.addFailure(example)
      FileHandle.standardError.write(
        Data("[\(name) \(index + 1)/\(examples.count)] \(example.id) failed: \(error)\n".utf8))
    }
  }
  reports.append((name, score))
  for key in ["A", "B"] where onlyHalf == nil || onlyHalf == key {
    if let part = halves[key], onlyHalf == nil { reports.append(("\(name) half \(key)", part)) }
  }
  if verbose { for line in score.details { FileHandle.standardError.write(Data("  \(line)\n".utf8)) } }
}
print(EvalScore.table(reports))
print("")
print(EvalScore.errorTable(reports))
