import Foundation
import SpeechRecognition

/// The one line the app shows for an error: the error's own message, and for what the engine
/// libraries report in their own terms (a model not installed), the app's command that fixes it.
///
/// The libraries never name the app's commands; the CLI and the web app show every failure
/// through ``describe(_:)`` so the person learns what to run.
public enum FailureText {
  /// `error`'s one-line message, with the `voicenotes` command that fixes it where there is one.
  ///
  /// ```swift
  /// FailureText.describe(SpeechTranscriptionError.modelNotInstalled(model: "base"))
  /// // "the 'base' speech model is not installed in the models folder; run `voicenotes models install base`"
  /// ```
  public static func describe(_ error: any Error) -> String {
    let message = (error as? LocalizedError)?.errorDescription ?? "\(error)"
    guard let advice = advice(for: error) else { return message }
    return "\(message); \(advice)"
  }

  /// The app's command for `error`, or nil when the message says all there is to do.
  private static func advice(for error: any Error) -> String? {
    switch error as? SpeechTranscriptionError {
    case .modelNotInstalled(let model): "run `voicenotes models install \(model)`"
    case .voiceActivityModelMissing: "run `make deps` in a checkout, or reinstall voicenotes"
    default: nil
    }
  }
}
