extension TranscribedSegment.Word {
  /// The word whisper.cpp's grouped `token` spells (see ``SpeechTranscriber/Result/words(of:)``).
  init(_ token: WhisperSegment.Token) {
    self.init(
      text: String(decoding: token.bytes, as: UTF8.self), start: token.start, end: token.end,
      probability: token.probability.isFinite ? Double(token.probability) : nil)
  }

  /// The word as a token for the custom-language-model code, which works on tokens; an unknown
  /// probability becomes infinity, which `min` passes over and ``init(_:)`` turns back into nil.
  var token: WhisperSegment.Token {
    WhisperSegment.Token(
      bytes: Array(text.utf8), start: start, end: end, probability: probability.map(Float.init) ?? .infinity)
  }
}
