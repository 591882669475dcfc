import Foundation
// The models folder and installation errors are shared with the language models; clients of
// this module see them without importing ModelSupport.
@_exported import ModelSupport

extension ModelDirectory {
  /// The path of `model`'s file in this folder (whether or not it exists).
  public func file(for model: SpeechModel) -> URL { file(named: model.fileName) }

  /// The Silero voice-activity model, which the bootstrap copies from the whisper.cpp sources.
  public var voiceActivityModel: URL? {
    let file = file(named: "ggml-silero-vad.bin")
    return FileManager.default.fileExists(atPath: file.path) ? file : nil
  }
}
