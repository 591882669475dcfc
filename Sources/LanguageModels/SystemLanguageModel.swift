import Foundation
import ModelSupport
import Synchronization

/// The on-device language model: a GGUF model run by llama.cpp on this machine.
///
/// Mirrors FoundationModels' `SystemLanguageModel`: check ``availability`` before use, then hand
/// the model to a ``LanguageModelSession``. ``default`` runs ``LanguageModelWeights/default``
/// from the models folder; other weights can be named explicitly.
///
/// ```swift
/// switch SystemLanguageModel.default.availability {
/// case .available: break
/// case .unavailable(.modelNotReady): print("run `voicenotes models install qwen-1.5b`")
/// case .unavailable(let reason): print("unavailable: \(reason)")
/// }
/// ```
public final class SystemLanguageModel: Sendable {
  /// What the model is used for. Kept for source compatibility; every use case runs the same model.
  public struct UseCase: Sendable, Equatable {
    let name: String
    /// General conversation and text generation.
    public static let general = UseCase(name: "general")
    /// Tagging and extracting from content.
    public static let contentTagging = UseCase(name: "contentTagging")
  }

  /// Content guardrails. Kept for source compatibility: a local model applies none of its own.
  public struct Guardrails: Sendable, Equatable {
    let name: String
    /// The default guardrails.
    public static let `default` = Guardrails(name: "default")
    /// Guardrails that allow transforming sensitive content.
    public static let permissiveContentTransformations = Guardrails(name: "permissive")
  }

  /// Whether the model can be used, and why not.
  public enum Availability: Sendable, Equatable {
    /// Why the model cannot be used.
    public enum UnavailableReason: Sendable, Equatable {
      /// The machine cannot run the engine (its CPU lacks the instructions the build needs).
      case deviceNotEligible
      /// Language model features are turned off (`VOICENOTES_LANGUAGE_MODEL=off`).
      case appleIntelligenceNotEnabled
      /// The model's weights are not installed yet, or are being downloaded.
      case modelNotReady
    }

    /// The model is ready.
    case available
    /// The model cannot be used, for `reason`.
    case unavailable(UnavailableReason)
  }

  /// The default model: ``LanguageModelWeights/default`` from the current models folder.
  public static let `default` = SystemLanguageModel()

  /// The weights this model runs.
  public let weights: LanguageModelWeights
  /// The use case it was created for.
  public let useCase: UseCase
  /// The guardrails it was created with.
  public let guardrails: Guardrails
  /// The models folder the weights are read from.
  public let modelDirectory: ModelDirectory
  /// Tokens a session holds: instructions, transcript, prompt and response together.
  public let contextSize: Int

  /// The default weights, for `useCase`.
  public convenience init(useCase: UseCase = .general, guardrails: Guardrails = .default) {
    self.init(weights: .default, useCase: useCase, guardrails: guardrails)
  }

  /// A model that runs `weights` from `modelDirectory` with a context of `contextSize` tokens.
  public init(
    weights: LanguageModelWeights, useCase: UseCase = .general, guardrails: Guardrails = .default,
    contextSize: Int? = nil, modelDirectory: ModelDirectory? = nil
  ) {
    self.weights = weights
    self.useCase = useCase
    self.guardrails = guardrails
    self.modelDirectory = modelDirectory ?? .current
    self.contextSize = max(contextSize ?? EngineConfiguration.current.contextSize ?? 4096, 256)
  }

  /// Whether the model can be used now.
  public var availability: Availability {
    switch EngineConfiguration.current.languageModelOverride {
    case .off: return .unavailable(.appleIntelligenceNotEnabled)
    case .deviceNotEligible: return .unavailable(.deviceNotEligible)
    case .modelNotReady: return .unavailable(.modelNotReady)
    case nil: break
    }
    if EngineHost.unsupportedReason != nil { return .unavailable(.deviceNotEligible) }
    if !weights.isInstalled(in: modelDirectory) { return .unavailable(.modelNotReady) }
    return .available
  }

  /// Whether ``availability`` is `.available`.
  public var isAvailable: Bool { availability == .available }

  /// The languages the model reads and writes well.
  public var supportedLanguages: Set<Locale.Language> {
    Set(["en", "zh", "es", "fr", "de", "it", "pt", "ja", "ko", "ru"].map { Locale.Language(identifier: $0) })
  }

  /// Whether the model supports `locale`'s language.
  public func supportsLocale(_ locale: Locale = .current) -> Bool {
    guard let code = locale.language.languageCode else { return false }
    return supportedLanguages.contains { $0.languageCode == code }
  }

  /// The number of tokens `text` takes in this model's vocabulary.
  public func tokenCount(for text: String) async throws -> Int {
    try await engine().tokenize(text).count
  }

  /// The number of tokens `prompt` takes.
  public func tokenCount(for prompt: Prompt) async throws -> Int { try await tokenCount(for: prompt.text) }

  /// The number of tokens `instructions` take.
  public func tokenCount(for instructions: Instructions) async throws -> Int {
    try await tokenCount(for: instructions.text)
  }

  // MARK: - Engine

  private static let engines = Mutex<[String: LlamaEngine]>([:])

  /// The loaded engine for these weights, loading it on first use (shared by every session).
  func engine() throws(LanguageModelSession.GenerationError) -> LlamaEngine {
    switch availability {
    case .available: break
    case .unavailable(let reason):
      throw .assetsUnavailable(.init(debugDescription: Self.explain(reason, weights: weights)))
    }
    let path = weights.file(in: modelDirectory).path
    let key = "\(path)#\(contextSize)"
    let threads = EngineHost.threadCount
    do {
      return try Self.engines.withLock { (engines) throws(LlamaError) -> LlamaEngine in
        if let engine = engines[key] { return engine }
        let engine = try LlamaEngine(path: path, contextSize: contextSize, threads: threads)
        engines[key] = engine
        return engine
      }
    } catch {
      throw .assetsUnavailable(.init(debugDescription: "llama.cpp could not load \(path): \(error)"))
    }
  }

  /// Why the model cannot be used now and what to do, in one line; nil when it is available.
  public var unavailabilityExplanation: String? {
    guard case .unavailable(let reason) = availability else { return nil }
    return Self.explain(reason, weights: weights)
  }

  static func explain(_ reason: Availability.UnavailableReason, weights: LanguageModelWeights) -> String {
    switch reason {
    case .deviceNotEligible: "this CPU cannot run the language model engine (it needs AVX2, FMA and F16C)"
    case .appleIntelligenceNotEnabled: "language model features are turned off (VOICENOTES_LANGUAGE_MODEL=off)"
    case .modelNotReady:
      "the '\(weights.name)' language model is not installed; run `voicenotes models install \(weights.name)`"
    }
  }

}
