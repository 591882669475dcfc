import Foundation

/// What a ``TranscriptionBackend`` is asked for: the language, a prompt, word times, and the
/// custom language model to follow where the backend can.
public struct TranscriptionRequest: Sendable {
  /// The spoken language as an ISO 639-1 code (`en`), or nil to detect it.
  public var language: String?
  /// Text that primes the recognizer (names, spelling, style), or nil.
  public var prompt: String?
  /// Whether each word's time range (and probability, where the backend has one) is wanted.
  public var wantsWordTimestamps: Bool
  /// How a custom language model steers decoding, or nil; only the local engine can follow one
  /// while it decodes (favoured tokens, a grammar of commands). A server gets its prompt.
  let steering: LanguageModelSteering?

  /// The custom language model the request follows, or nil.
  public var customLanguageModel: SpeechLanguageModel? { steering?.model }
  /// How ``customLanguageModel`` is followed, or nil without one.
  public var customLanguageModelMode: SpeechLanguageModel.Mode? { steering?.mode }

  /// A request for `language` (nil detects it), primed with `prompt`, with word times when
  /// `wantsWordTimestamps`.
  public init(language: String?, prompt: String? = nil, wantsWordTimestamps: Bool = true) {
    self.init(language: language, prompt: prompt, wantsWordTimestamps: wantsWordTimestamps, steering: nil)
  }

  init(language: String?, prompt: String?, wantsWordTimestamps: Bool, steering: LanguageModelSteering?) {
    self.language = language
    self.prompt = prompt
    self.wantsWordTimestamps = wantsWordTimestamps
    self.steering = steering
  }
}
