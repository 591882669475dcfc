/// A stretch of transcribed speech as whisper.cpp produced it, with times in original-audio seconds.
struct WhisperSegment: Sendable, Equatable {
  /// One text token: its bytes (a token may hold part of a UTF-8 character), times and probability.
  struct Token: Sendable, Equatable {
    var bytes: [UInt8]
    var start: Double
    var end: Double
    var probability: Float
  }

  var start: Double
  var end: Double
  var tokens: [Token]
  var noSpeechProbability: Float

  /// The segment's text, as whisper spelled it (usually with a leading space).
  var text: String { String(decoding: tokens.flatMap(\.bytes), as: UTF8.self) }
}
