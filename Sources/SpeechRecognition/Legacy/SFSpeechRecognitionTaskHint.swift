/// The kind of speech a request expects, as Apple's recognizer takes it.
///
/// Whisper transcribes every kind the same way, so the hint is kept and reported but does not
/// change the result; for commands, give the request a custom language model instead.
public enum SFSpeechRecognitionTaskHint: Int, Sendable {
  /// No particular kind.
  case unspecified = 0
  /// Free dictation.
  case dictation = 1
  /// Short searches.
  case search = 2
  /// Short confirmations and commands.
  case confirmation = 3
}
