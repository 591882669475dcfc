import Foundation
import ModelSupport
import Synchronization

/// The language model: by default a GGUF model run by llama.cpp on this machine, or any
/// ``LanguageModelBackend`` (an OpenAI-compatible server, for instance).
///
/// Mirrors FoundationModels' `SystemLanguageModel`: check ``availability`` before use, then hand
/// the model to a ``LanguageModelSession``. ``default`` runs ``LanguageModelWeights/default``
/// from the models folder; other weights or a backend can be named explicitly.
///
/// ```swift
/// switch SystemLanguageModel.default.availability {
/// case .available: break
/// case .unavailable(let reason):
///   print(SystemLanguageModel.default.unavailabilityExplanation ?? "unavailable: \(reason)")
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

  /// The default model: the configured language-model server when there is one
  /// (``EngineConfiguration/languageModelServer``, `VOICENOTES_LANGUAGE_MODEL_SERVER`), else
  /// ``LanguageModelWeights/default`` from the current models folder.
  public static let `default` = SystemLanguageModel()

  /// What runs the model.
  public let backend: any LanguageModelBackend
  /// The use case it was created for.
  public let useCase: UseCase
  /// The guardrails it was created with.
  public let guardrails: Guardrails
  /// Tokens a session holds: instructions, transcript, prompt and response together. For a
  /// backend other than ``LlamaBackend`` this is the size given at creation (else the configured
  /// one, else 4096); ask the backend's `contextSize()` for the server's own figure.
  public let contextSize: Int

  /// The weights the local backend runs, or nil when another backend answers.
  public var weights: LanguageModelWeights? { (backend as? LlamaBackend)?.weights }
  /// The models folder the local backend reads, or nil when another backend answers.
  public var modelDirectory: ModelDirectory? { (backend as? LlamaBackend)?.modelDirectory }

  /// The default model for `useCase`: the configured server when `configuration` names one,
  /// else the default weights.
  public convenience init(
    useCase: UseCase = .general, guardrails: Guardrails = .default, configuration: EngineConfiguration = .current
  ) {
    if let server = configuration.languageModelServer {
      self.init(server: server, useCase: useCase, guardrails: guardrails, configuration: configuration)
    } else {
      self.init(
        backend: LlamaBackend(weights: .configured(in: configuration), configuration: configuration), useCase: useCase,
        guardrails: guardrails)
    }
  }

  /// A model that an OpenAI-compatible server answers (``OpenAIChatBackend``). `contextSize` is
  /// what ``contextSize`` reports (by default the configured size, else 4096).
  public convenience init(
    server: EngineConfiguration.ServerEndpoint, contextSize: Int? = nil, useCase: UseCase = .general,
    guardrails: Guardrails = .default, configuration: EngineConfiguration = .current
  ) {
    self.init(
      backend: OpenAIChatBackend(server: server, contextSize: contextSize, configuration: configuration),
      useCase: useCase, guardrails: guardrails, contextSize: contextSize)
  }

  /// A model that runs `weights` from `modelDirectory` with a context of `contextSize` tokens.
  public convenience init(
    weights: LanguageModelWeights, useCase: UseCase = .general, guardrails: Guardrails = .default,
    contextSize: Int? = nil, modelDirectory: ModelDirectory? = nil
  ) {
    self.init(
      backend: LlamaBackend(weights: weights, contextSize: contextSize, modelDirectory: modelDirectory),
      useCase: useCase, guardrails: guardrails)
  }

  /// A model that `backend` runs. `contextSize` is what ``contextSize`` reports for a backend
  /// other than ``LlamaBackend`` (by default the configured size, else 4096).
  public init(
    backend: some LanguageModelBackend, useCase: UseCase = .general, guardrails: Guardrails = .default,
    contextSize: Int? = nil
  ) {
    self.backend = backend
    self.useCase = useCase
    self.guardrails = guardrails
    if let local = backend as? LlamaBackend {
      self.contextSize = local.configuredContextSize
    } else {
      self.contextSize = max(contextSize ?? EngineConfiguration.current.contextSize ?? 4096, 256)
    }
  }

  /// Whether the model can be used now.
  public var availability: Availability {
    switch EngineConfiguration.current.languageModelOverride {
    case .off: return .unavailable(.appleIntelligenceNotEnabled)
    case .deviceNotEligible: return .unavailable(.deviceNotEligible)
    case .modelNotReady: return .unavailable(.modelNotReady)
    case nil: break
    }
    return backend.availability
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
    try checkAvailable()
    return try await backend.tokenCount(for: text)
  }

  /// The number of tokens `instructions` take.
  public func tokenCount(for instructions: Instructions) async throws -> Int {
    try await tokenCount(for: instructions.text)
  }

  /// The number of tokens a value takes as a prompt: a `Prompt`, or a `@Generable` value as its
  /// JSON.
  public func tokenCount(for prompt: some PromptRepresentable) async throws -> Int {
    try await tokenCount(for: prompt.promptRepresentation.text)
  }

  /// The number of tokens the descriptions of `tools` add to a session's instructions.
  public func tokenCount(for tools: [any Tool]) async throws -> Int {
    guard let toolbox = try ToolGrammar(tools: tools.map { LanguageModelToolSpecification(tool: $0) }) else {
      return 0
    }
    return try await tokenCount(for: toolbox.descriptions)
  }

  /// The number of tokens `schema` takes when a prompt describes it to the model.
  public func tokenCount(for schema: GenerationSchema) async throws -> Int {
    try await tokenCount(for: schema.promptDescription())
  }

  /// The number of tokens of the entries' text as the model is sent it (`session.transcript`, or
  /// a response's `transcriptEntries`), without the chat template's markers around each turn.
  public func tokenCount(for transcriptEntries: some Collection<Transcript.Entry>) async throws -> Int {
    let messages = Transcript(entries: transcriptEntries).languageModelMessages
    return try await tokenCount(for: messages.map(\.content).joined(separator: "\n"))
  }

  /// Throws `assetsUnavailable` with the explanation when the model cannot be used now.
  func checkAvailable() throws(LanguageModelSession.GenerationError) {
    guard let explanation = unavailabilityExplanation else { return }
    throw .assetsUnavailable(.init(debugDescription: explanation))
  }

  /// The local engine, for tests of the tokenizer and the template.
  func engine() throws(LanguageModelSession.GenerationError) -> LlamaEngine {
    guard let local = backend as? LlamaBackend else {
      throw .assetsUnavailable(.init(debugDescription: "\(backend.displayName) is not a local model"))
    }
    try checkAvailable()
    return try local.engine()
  }

  /// Why the model cannot be used now and what is missing, in one line; nil when it is available.
  public var unavailabilityExplanation: String? {
    switch EngineConfiguration.current.languageModelOverride {
    case .off: return "language model features are turned off (VOICENOTES_LANGUAGE_MODEL=off)"
    case .deviceNotEligible: return "the language model is treated as unable to run here (VOICENOTES_LANGUAGE_MODEL)"
    case .modelNotReady: return "the language model is treated as not installed (VOICENOTES_LANGUAGE_MODEL)"
    case nil: return backend.unavailabilityExplanation
    }
  }
}
