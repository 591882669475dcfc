import Foundation

/// Why a transcription could not run or produced nothing, with what to do about it.
///
/// The first cases match the errors the seed app defines around Apple's SpeechTranscriber; the
/// rest cover what a local engine adds (a model to install, an engine that can fail).
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

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .unavailable(let reason):
      "speech recognition is not available on this machine: \(reason)"
    case .unsupportedLocale(let locale, let model):
      "the '\(model)' speech model does not support the language '\(locale.identifier)'; use --language auto or the multilingual 'base' model"
    case .emptyResult:
      "no speech was detected in this recording"
    case .modelNotInstalled(let model):
      "the '\(model)' speech model is not installed; run `voicenotes models install \(model)`"
    case .engineFailure(let detail):
      "the speech engine failed: \(detail)"
    case .cancelled:
      "the transcription was cancelled"
    case .invalidState(let detail):
      "the speech analyzer was used out of order: \(detail)"
    case .voiceActivityModelMissing(let path):
      "the voice-activity model \(path) is missing or unreadable; run `make deps` to install it"
    }
  }
}
