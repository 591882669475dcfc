import CommandLineParsing
import Foundation
import LanguageModels
import VoiceNotes

/// `voicenotes analyze`: analyse a note again, or any transcript text.
struct AnalyzeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "analyze", abstract: "Analyse a note again, or any text with --transcript-file.",
    arguments: [ArgumentSpec(name: "id", help: "The note's id, or a unique prefix.", isOptional: true)],
    options: [transcriptFile, model, OutputOptions.json, OutputOptions.quiet, LibraryOption.option],
    examples: [
      Example("voicenotes analyze 3f2a", "Analyse a note again (after changing the language model, say)."),
      Example("voicenotes analyze --transcript-file call.txt --json", "Analyse any text; print the result as JSON."),
    ])

  static let transcriptFile = Option<String>(
    "transcript-file", short: "t", value: "file", help: "Analyse the text in this file instead of a note.")
  static let model = ModelOptions.language("model", short: "m", purpose: "Language model")

  let id: String?
  let transcriptFile: String?
  /// The weights `--model` names; nil for the library's (its servers, else the default weights).
  let weights: LanguageModelWeights?
  let json: Bool
  let quiet: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals.first
    transcriptFile = try input.value(Self.transcriptFile)
    weights = try input.value(Self.model)
    json = input.isSet(OutputOptions.json)
    quiet = input.isSet(OutputOptions.quiet)
    library = try LibraryOption.url(from: input)
    if (id == nil) == (transcriptFile == nil) {
      throw input.error("give a note id or --transcript-file, not both and not neither")
    }
  }

  func run() async throws {
    let progress = ProgressReporter(quiet: quiet)
    if let transcriptFile {
      // No library: the model `--model` names, else the configured server, else the default weights.
      let analyzer = NoteAnalyzer(model: weights.map { SystemLanguageModel(weights: $0) } ?? SystemLanguageModel())
      let text: String
      do {
        text = try String(contentsOfFile: transcriptFile, encoding: .utf8)
      } catch {
        throw CommandFailure(message: "\(transcriptFile): cannot read the transcript (\(error.localizedDescription))")
      }
      guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
        throw CommandFailure(message: "\(transcriptFile): the file is empty; there is nothing to analyse")
      }
      if let local = analyzer.model.weights, !local.isInstalled() {
        try await local.install { stage, fraction in progress.update(stage, fraction: fraction) }
      }
      let started = ContinuousClock.now
      let analysis = try await analyzer.analyze(text) { update in
        let seconds = Double((ContinuousClock.now - started).components.seconds)
        progress.status("analysing", detail: "\(update.tokens) tokens, \(Int(seconds)) s")
      }
      progress.clear()
      if json {
        try OutputOptions.printJSON(text: analysis.generatedContent.jsonString)
      } else {
        print("\(analysis.title)\n\(analysis.summary)")
      }
      return
    }
    let app = try await LibraryOption.openExisting(library)
    var configuration = app.configuration
    if let weights {
      configuration.languageModel = weights
      configuration.languageModelServers = []
    }
    let store = app.store
    let pipeline = NotePipeline(
      store: store, transcribers: [FileTranscriber()], analyzers: Library.analyzers(configuration))
    let note = try await store.resolve(id ?? "")
    let timing = PipelineProgress(progress)
    let done = try await pipeline.reanalyze(note, progress: timing.report)
    progress.finish("\(done.id.prefix(8)) \(PipelineProgress.outcome(done)) \(timing.summary())")
    if json {
      try OutputOptions.printJSON(NoteJSON(done, detail: .segments))
    } else {
      print(NoteFormatting.markdown(done), terminator: "")
    }
  }
}
