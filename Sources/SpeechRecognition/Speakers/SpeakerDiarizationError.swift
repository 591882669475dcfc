import Foundation

/// Why speaker diarization or a voice embedding could not be computed, with what to do.
///
/// Messages say what is missing in the library's terms; an app adds its own command for
/// installing the model.
public enum SpeakerDiarizationError: Error, LocalizedError, Equatable, Sendable {
  /// The speaker model's files are not in the models folder.
  case modelNotInstalled(model: String, folder: String)
  /// sherpa-onnx could not load the model files or failed while running.
  case engineFailure(detail: String)
  /// The audio is too short to say anything about its voices.
  case audioTooShort(seconds: Double)
  /// A speaker count below one was asked for.
  case invalidSpeakerCount(Int)

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .modelNotInstalled(let model, let folder):
      "the '\(model)' speaker model is not installed (looked for segmentation.onnx and embedding.onnx in \(folder)); install it first"
    case .engineFailure(let detail):
      "speaker diarization failed: \(detail)"
    case .audioTooShort(let seconds):
      String(format: "%.2f s of audio is too short to recognise a voice; give at least a second of speech", seconds)
    case .invalidSpeakerCount(let count):
      "cannot look for \(count) speakers; ask for at least one, or for none to let the voices decide"
    }
  }
}
