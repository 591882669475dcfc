// The analysis-quality evaluation (`make eval`): runs NoteAnalyzer on a JSONL file of transcripts
// with what a careful reader would extract, and prints the metrics ../shared/eval/README.md names,
// for each model given.
import Foundation
import LanguageModels
import VoiceNotes

let verbose = CommandLine.arguments.contains("--verbose")
let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--verbose" }
guard let path = arguments.first else {
  FileHandle.standardError.write(Data("usage: AnalysisEval [--verbose] FILE.jsonl [MODEL...]\n".utf8))
  exit(2)
}
let modelNames = arguments.dropFirst().isEmpty ? ["qwen-1.5b", "qwen-0.5b"] : Array(arguments.dropFirst())
let examples: [EvalExample]
do {
  examples = try EvalExample.load(URL(fileURLWithPath: path))
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
  let analyzer = NoteAnalyzer(model: model)
  var score = EvalScore()
  for (index, example) in examples.enumerated() {
    let started = Date()
    let promptTokens =
      (try? await model.tokenCount(
        for: NoteAnalyzer.instructions.text + NoteAnalysis.generationSchema.promptDescription()
          + example.transcript)) ?? 0
    do {
      let analysis = try await analyzer.analyze(example.transcript)
      let seconds = Date().timeIntervalSince(started)
      let generated = (try? await model.tokenCount(for: analysis.generatedContent.jsonString)) ?? 0
      score.add(example, analysis, seconds: seconds, promptTokens: promptTokens, generatedTokens: generated)
      FileHandle.standardError.write(
        Data(String(format: "[%@ %d/%d] %@ %.1f s\n", name, index + 1, examples.count, example.id, seconds).utf8))
      if verbose { FileHandle.standardError.write(Data("  \(analysis.generatedContent.jsonString)\n".utf8)) }
    } catch {
      score.failures += 1
      FileHandle.standardError.write(
        Data("[\(name) \(index + 1)/\(examples.count)] \(example.id) failed: \(error)\n".utf8))
    }
  }
  reports.append((name, score))
}
print(EvalScore.table(reports))
