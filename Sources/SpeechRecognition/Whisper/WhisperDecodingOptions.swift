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
  /// Prime every 30 s window with ``initialPrompt``, not only the first (a vocabulary then helps
  /// all through a long recording).
  var carryInitialPrompt = false
  /// A custom language model's favoured text and grammar, or nil.
  var steering: WhisperSteering?
  /// Decode without timestamp tokens into one segment: faster, for text that will be replaced.
  var singleSegment = false
  /// Compute a start and end time for every token (word time ranges).
  var tokenTimestamps = true
  /// Encoder frames to attend to (50 a second), 0 for Whisper's full 30 s window. A window
  /// fitted to a short utterance makes the encoder many times faster, at some cost in accuracy.
  var audioContext = 0
  /// The most tokens to decode for one segment, 0 for no limit: a bound on runaway repetition.
  var maximumTokens = 0
  /// Keep the decoder from writing non-speech tokens such as "[BLANK_AUDIO]" or "(music)".
  var suppressNonSpeechTokens = false
  /// Fall back to sampling at higher temperatures when greedy text looks wrong (repetitions).
  var temperatureFallback = true

  /// Defaults tuned for accuracy on two cores: beam search of width 5, all cores, VAD when present.
  static func standard(language: String?, voiceActivityModel: String?) -> WhisperDecodingOptions {
    let configuration = EngineConfiguration.current
    return WhisperDecodingOptions(
      language: language,
      threads: configuration.threads,
      beamSize: configuration.beamSize ?? 5,
      voiceActivityModel: configuration.usesVoiceActivityDetection ? voiceActivityModel : nil,
      initialPrompt: nil)
  }
}
