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
  /// Candidates sampled at each raised temperature of the fallback when decoding greedily, the
  /// most likely kept; nil for as many as ``beamSize``.
  var bestOf: Int?
  /// Path of a Silero VAD model; when set, silence is removed before decoding.
  var voiceActivityModel: String?
  /// Text that primes the decoder (names, spelling, style).
  var initialPrompt: String?
  /// Prime every 30 s window with ``initialPrompt``, not only the first (a vocabulary then helps
  /// all through a long recording).
  var carryInitialPrompt = false
  /// A custom language model's favoured text and grammar, or nil.
  var steering: WhisperSteering?
  /// Decode into one segment, without the text before as context and, unless
  /// ``tokenTimestamps`` asks for word times, without timestamp tokens: faster, for text that will
  /// be replaced.
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
  /// Fit the encoder window to a recording whose speech is shorter than Whisper's 30 s (see
  /// ``fittedAudioContext(forSamples:sampleRate:)``) when ``audioContext`` is 0.
  var fitsAudioContext = false
  /// Decode greedily, and decode again with beam search of width ``beamSize`` only the segments
  /// this names unsure (see ``SegmentRecheck``); nil decodes everything with ``beamSize``. A
  /// signal that fits one 30 s window is decoded with the beam at once either way.
  var recheck: SegmentRecheck?

  /// Defaults for files, tuned for accuracy and speed on two cores: greedy decoding, with the
  /// segments it was unsure of decoded again by beam search of width 5 (``SegmentRecheck``; the
  /// beam at once for speech that fits one window), all cores, VAD when present, and an encoder
  /// window fitted to short speech when configured. A configured beam width
  /// (`VOICENOTES_BEAM_SIZE`) decodes everything with that width instead; greedy decoding
  /// samples five candidates at each raised temperature of the fallback.
  ///
  /// Greedy decoding alone takes half the CPU time of the beam and kept the 1.4% word error rate
  /// on the benchmark's 136 s LibriVox recording and jfk.wav word for word, but heard "ill
  /// disposed" as "ill-sposed" in one LibriVox utterance; the recheck gives that word back. The
  /// fitted window also lost a word there, so it is not the default.
  static func standard(language: String?, voiceActivityModel: String?) -> WhisperDecodingOptions {
    let configuration = EngineConfiguration.current
    var options = WhisperDecodingOptions(
      language: language,
      threads: configuration.threads,
      beamSize: configuration.beamSize ?? 5,
      voiceActivityModel: configuration.usesVoiceActivityDetection ? voiceActivityModel : nil,
      initialPrompt: nil)
    if options.beamSize == 1 { options.bestOf = 5 }
    if configuration.beamSize == nil { options.recheck = SegmentRecheck() }
    options.fitsAudioContext = configuration.fitsAudioContext
    return options
  }

  /// The smallest fitted encoder window, in encoder frames (about 15 s): shorter windows make
  /// Whisper repeat itself and misread short utterances more often.
  static let smallestFittedAudioContext = 768

  /// The encoder window for `count` samples of speech, in encoder frames (50 a second): the
  /// speech and a second and a half to spare, rounded up to a multiple of 256 and at least
  /// `minimum` (``smallestFittedAudioContext`` by default); 0 (all 30 s) when that would be most
  /// of the window anyway.
  static func fittedAudioContext(
    forSamples count: Int, sampleRate: Double, minimum: Int = smallestFittedAudioContext
  ) -> Int {
    let frames = Int(((Double(count) / sampleRate + 1.5) * 50).rounded(.up))
    let window = max(minimum, (frames + 255) / 256 * 256)
    return window >= 1500 ? 0 : window
  }
}
