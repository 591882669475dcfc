import Foundation
import SpeechRecognition

/// The custom-language-model files: the input is read as a compiled language model file
/// (``SpeechLanguageModel/init(configuration:)``), then as an exported data file that is compiled
/// (``SpeechLanguageModel/prepareCustomLanguageModel(for:configuration:ignoresCache:)``: parsing,
/// checking, template expansion, X-SAMPA, the command grammar) and loaded back, which must give the
/// same model.
enum CustomLanguageModelFuzz {
  static func run(_ data: Data) {
    let input = FuzzFolder.file("model-data.json")
    let compiled = FuzzFolder.file("compiled/model.json")
    guard (try? data.write(to: input)) != nil else { return }
    defer {
      try? FileManager.default.removeItem(at: input)
      try? FileManager.default.removeItem(at: compiled)
    }
    let configuration = SpeechLanguageModel.Configuration(languageModel: input)
    _ = try? SpeechLanguageModel(configuration: configuration)

    let output = SpeechLanguageModel.Configuration(languageModel: compiled)
    let prepared = AsyncRunner.wait {
      try? await SpeechLanguageModel.prepareCustomLanguageModel(for: input, configuration: output, ignoresCache: true)
    }
    guard let prepared else { return }
    do {
      let loaded = try SpeechLanguageModel(configuration: output)
      fuzzCheck(loaded == prepared, "the compiled model reads back differently")
    } catch {
      fuzzCheck(false, "the compiled model cannot be read back: \(error)")
    }
  }
}
