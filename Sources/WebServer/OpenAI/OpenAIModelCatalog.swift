import Foundation
import LanguageModels
import ModelSupport
import SpeechRecognition
import VoiceNotes

/// The models the OpenAI-compatible routes offer: the library's installed language and speech
/// models, by the names the command line uses (`qwen-1.5b`, `base`, `tiny.en`), plus `whisper-1`
/// for the library's default speech model, as OpenAI clients ask for it.
struct OpenAIModelCatalog: Sendable {
  /// One entry of `GET /v1/models`.
  struct Entry: Sendable, Equatable {
    /// The model's name.
    var id: String
    /// Always `model`.
    var object = "model"
    /// When it was installed (the file's modification time), in seconds since 1970.
    var created: Int
    /// Always `voicenotes`.
    var ownedBy = "voicenotes"
  }

  /// OpenAI's name for its speech model, taken to mean the library's default speech model.
  static let whisperAlias = "whisper-1"

  let library: Library

  /// Every installed model, language models first.
  func entries() async -> [Entry] {
    let installed = await library.models().filter { $0.state == .installed }
    let directory = ModelDirectory.current
    func created(_ file: URL) -> Int {
      let date = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
      return Int((date ?? Date(timeIntervalSince1970: 0)).timeIntervalSince1970)
    }
    var entries: [Entry] = []
    for model in installed where model.kind == .language {
      guard let weights = try? LanguageModelWeights.named(model.name) else { continue }
      entries.append(Entry(id: model.name, created: created(weights.file(in: directory))))
    }
    for model in installed where model.kind == .speech {
      guard let speech = try? SpeechModel.named(model.name) else { continue }
      entries.append(Entry(id: model.name, created: created(directory.file(named: speech.fileName))))
    }
    return entries
  }

  /// The installed language model called `name`.
  ///
  /// - Throws: a 404 ``OpenAIError`` naming the installed models when it is unknown or absent.
  func languageModel(named name: String) async throws(OpenAIError) -> LanguageModelWeights {
    guard let weights = try? LanguageModelWeights.named(name) else {
      throw .modelNotFound(
        "the model '\(name.prefix(60))' does not exist here; use one of \(await installedNames(.language))")
    }
    guard weights.isInstalled(in: .current) else {
      throw .modelNotFound(
        "the model '\(name)' is not installed; install it with `voicenotes models install \(name)`, or use one of \(await installedNames(.language))"
      )
    }
    return weights
  }

  /// The installed speech model called `name` (`whisper-1` is the library's default).
  ///
  /// - Throws: a 404 ``OpenAIError`` naming the installed models when it is unknown or absent.
  func speechModel(named name: String) async throws(OpenAIError) -> SpeechModel {
    let model: SpeechModel
    if name == Self.whisperAlias {
      model = library.configuration.speechModel
    } else if let named = try? SpeechModel.named(name) {
      model = named
    } else {
      throw .modelNotFound(
        "the speech model '\(name.prefix(60))' does not exist here; use \(Self.whisperAlias) or one of \(await installedNames(.speech))"
      )
    }
    guard AssetInventory.status(of: model, in: .current) == .installed else {
      throw .modelNotFound(
        "the speech model '\(model.name)' is not installed; install it with `voicenotes models install \(model.name)`")
    }
    return model
  }

  private func installedNames(_ kind: ModelStatus.Kind) async -> String {
    let names = await library.models().filter { $0.kind == kind && $0.state == .installed }.map(\.name)
    return names.isEmpty ? "(none installed: run `voicenotes models install`)" : names.joined(separator: ", ")
  }
}
