import Foundation
import ModelSupport

/// How whisper.cpp decodes: language, threads, search width and voice-activity filtering.
struct WhisperDecodingOptions: Sendable, Equatable {
  /// An ISO 639-1 code, or nil to detect the language from the first seconds of audio.
  var language: String?
  /// CPU threads for the encoder and decoder.
  var threads: Int
  /// Beam width; 1 means greedy decoding.
  var beamSize: Int
  /// Path of a Silero VAD model; when set, silence is removed before decoding.
  var voiceActivityModel: String?
  /// Text that primes the decoder (names, spelling, style).
  var initialPrompt: String?

  /// Defaults tuned for accuracy on two cores: beam search of width 5, all cores, VAD when present.
  static func standard(language: String?, voiceActivityModel: String?) -> WhisperDecodingOptions {
    let environment = ProcessInfo.processInfo.environment
    return WhisperDecodingOptions(
      language: language,
      threads: EngineHost.threadCount,
      beamSize: environment["VOICENOTES_BEAM_SIZE"].flatMap(Int.init) ?? 5,
      voiceActivityModel: environment["VOICENOTES_VAD"] == "0" ? nil : voiceActivityModel,
      initialPrompt: nil)
  }
}
