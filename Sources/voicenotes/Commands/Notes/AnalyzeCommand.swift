import Foundation
import LanguageModels
import VoiceNotes

/// `voicenotes analyze`: analyse a note again, or any transcript text.
struct AnalyzeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "analyze", abstract: "Analyse a note again, or any text with --transcript-file.",
    arguments: [ArgumentSpec(name: "id", help: "The note's id, or a unique prefix.", isOptional: true)],
    options: [
      .option("transcript-file", short: "t", value: "file", help: "Analyse the text in this file instead of a note."),
      .option(
        "model", short: "m", value: "model", help: "Language model: qwen-1.5b (default), qwen-0.5b.",
        allowed: LanguageModelWeights.all.map(\.name)),
      .flag("json", help: "Print the analysis as JSON."), .flag("quiet", short: "q", help: "Show no progress."),
      LibraryOption.spec,
    ])

  let id: String?
  let transcriptFile: String?
  let weights: LanguageModelWeights
  let json: Bool
  let quiet: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals.first
    transcriptFile = input.value("transcript-file")
    weights = input.value("model").flatMap { try? LanguageModelWeights.named($0) } ?? .default
    json = input.flag("json")
    quiet = input.flag("quiet")
    library = LibraryOption.url(from: input)
    if (id == nil) == (transcriptFile == nil) {
      throw input.error("give a note id or --transcript-file, not both and not neither")
    }
  }

  func run() async throws {
    let progress = ProgressReporter(quiet: quiet)
    let analyzer = NoteAnalyzer(model: SystemLanguageModel(weights: weights))
    if let transcriptFile {
      let text: String
      do {
        text = try String(contentsOfFile: transcriptFile, encoding: .utf8)
      } catch {
        throw CommandFailure(message: "\(transcriptFile): cannot read the transcript (\(error.localizedDescription))")
      }
      guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
        throw CommandFailure(message: "\(transcriptFile): the file is empty; there is nothing to analyse")
      }
      if !weights.isInstalled() {
        try await weights.install { stage, fraction in progress.update(stage, fraction: fraction) }
      }
      let analysis = try await analyzer.analyze(text) { progress.update("analysing", fraction: $0) }
      progress.clear()
      print(
        json
          ? String(
            decoding: try JSONSerialization.data(
              withJSONObject: try JSONSerialization.jsonObject(with: Data(analysis.generatedContent.jsonString.utf8)),
              options: [.prettyPrinted, .sortedKeys]), as: UTF8.self) : "\(analysis.title)\n\(analysis.summary)")
      return
    }
    let store = try await LibraryOption.open(library).store
    let pipeline = NotePipeline(store: store, analyzer: analyzer)
    let note = try await store.resolve(id ?? "")
    let done = try await pipeline.reanalyze(note, progress: PipelineProgress.reporter(progress))
    progress.clear()
    print(json ? try NoteFormatting.json(done) : NoteFormatting.markdown(done), terminator: json ? "\n" : "")
  }
}
