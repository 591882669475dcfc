import Foundation

/// Why a transcription could not run or produced nothing, with what to do about it.
///
/// The first cases match the errors the seed app defines around Apple's SpeechTranscriber; the
/// rest cover what a local engine adds (a model to install, an engine that can fail) and what a
/// transcription server adds (one that does not answer, or answers with an error). Messages say
/// what is missing in the library's terms; an app adds its own command for installing it.
public enum SpeechTranscriptionError: Error, LocalizedError, Equatable, Sendable {
  /// Speech recognition cannot run on this machine.
  case unavailable(reason: String)
  /// The model cannot transcribe this language.
  case unsupportedLocale(Locale, model: String)
  /// The audio held no speech.
  case emptyResult
  /// The model's files are not installed yet.
  case modelNotInstalled(model: String)
  /// whisper.cpp reported a failure.
  case engineFailure(detail: String)
  /// The analysis was cancelled before it finished.
  case cancelled
  /// The analyzer was used out of order (for example, input after it finished).
  case invalidState(String)
  /// The Silero voice-activity model, which live analysis and ``SpeechDetector`` need, is
  /// missing or cannot be loaded.
  case voiceActivityModelMissing(path: String)
  /// A transcription server could not be reached at `url`.
  case serverUnreachable(url: String, reason: String)
  /// A transcription server at `url` did not answer within `seconds`.
  case serverTimedOut(url: String, seconds: Double)
  /// A transcription server at `url` answered with HTTP `status` and `message`.
  case serverError(url: String, status: Int, message: String)
  /// A transcription server at `url` answered with something other than a transcription.
  case invalidServerResponse(url: String, detail: String)

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .unavailable(let reason):
      "speech recognition is not available on this machine: \(reason)"
    case .unsupportedLocale(let locale, let model):
      "the '\(model)' speech model does not support the language '\(locale.identifier)'; detect the language instead or use the multilingual 'base' model"
    case .emptyResult:
      "no speech was detected in this recording"
    case .modelNotInstalled(let model):
      "the '\(model)' speech model is not installed in the models folder"
    case .engineFailure(let detail):
      "the speech engine failed: \(detail)"
    case .cancelled:
      "the transcription was cancelled"
    case .invalidState(let detail):
      "the speech analyzer was used out of order: \(detail)"
    case .voiceActivityModelMissing(let path):
      "the Silero voice-activity model \(path) is missing or unreadable; put \(VoiceActivityDetector.modelFileName) from the whisper.cpp sources in the models folder"
    case .serverUnreachable(let url, let reason):
      "the transcription server \(url) cannot be reached: \(reason); is it running?"
    case .serverTimedOut(let url, let seconds):
      "the transcription server \(url) did not answer within \(Int(seconds.rounded())) s; is it overloaded, or is the timeout too short?"
    case .serverError(let url, let status, let message):
      "the transcription server \(url) answered HTTP \(status): \(message)"
    case .invalidServerResponse(let url, let detail):
      "the transcription server \(url) sent an answer that is not a transcription: \(detail)"
    }
  }
}
