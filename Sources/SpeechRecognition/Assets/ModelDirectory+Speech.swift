import Foundation
import ModelSupport

/// The folder of installed models (shared with the language models).
public typealias ModelDirectory = ModelSupport.ModelDirectory
/// Why a model could not be installed.
public typealias ModelAssetError = ModelSupport.ModelAssetError

extension ModelDirectory {
  /// The path of `model`'s file in this folder (whether or not it exists).
  public func file(for model: SpeechModel) -> URL { file(named: model.fileName) }

  /// The Silero voice-activity model, which the bootstrap copies from the whisper.cpp sources.
  public var voiceActivityModel: URL? {
    let file = file(named: "ggml-silero-vad.bin")
    return FileManager.default.fileExists(atPath: file.path) ? file : nil
  }
}
