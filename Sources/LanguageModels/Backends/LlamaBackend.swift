import Foundation
import ModelSupport
import Synchronization

/// The local backend: a GGUF model run by llama.cpp on this machine, every response format
/// enforced by a grammar while sampling.
///
/// Engines are loaded on first use and shared by every backend with the same weights file and
/// context size. Tools are described in the system message in the layout instruction-tuned models
/// such as Qwen2.5 learned, and offered through a grammar that admits either a `<tool_call>` with
/// valid arguments or the answer.
///
/// The system message (instructions, tool descriptions) is the part of a prompt that requests
/// share. Its KV state is saved in a state file in ``promptStateFolder`` and restored by any later
/// process, so only the rest of the prompt is evaluated; in one process the KV cache keeps it.
///
/// ```swift
/// let model = SystemLanguageModel(backend: LlamaBackend(weights: .small))
/// ```
public struct LlamaBackend: LanguageModelBackend {
  /// The weights this backend runs.
  public let weights: LanguageModelWeights
  /// The models folder the weights are read from.
  public let modelDirectory: ModelDirectory
  /// Tokens a conversation may hold: instructions, transcript, prompt and response together.
  public let configuredContextSize: Int
  /// The folder the KV states of system messages are saved in, or nil to save none (each new
  /// process then evaluates its system messages again).
  public let promptStateFolder: URL?
  /// The seed of random sampling when a request names none (``EngineConfiguration/samplingSeed``).
  public let samplingSeed: UInt64?
  /// Whether generation evaluates the text the grammar allows no alternative to (property
  /// names, punctuation, copied text) without sampling it, in the forward pass of the token
  /// sampled before it.
  public let decodesAhead: Bool
  /// Why the configuration's model name cannot be used, when it names no model: then no local
  /// model runs, rather than one the person did not ask for.
  let misnamedModel: String?

  /// A backend that runs `weights` from `modelDirectory` (by default the current models folder)
  /// with a context of `contextSize` tokens (by default the configured size, else 4096), saving
  /// the KV states of system messages in the configuration's
  /// ``EngineConfiguration/promptStateFolder`` unless `savesPromptStates` is false. Generation
  /// evaluates several tokens per forward pass where it can (``decodesAhead``) unless
  /// `decodesAhead` is false: the same output, a token at a time, for measuring what it saves.
  public init(
    weights: LanguageModelWeights = .default, contextSize: Int? = nil, modelDirectory: ModelDirectory? = nil,
    configuration: EngineConfiguration = .current, savesPromptStates: Bool = true, decodesAhead: Bool = true
  ) {
    self.decodesAhead = decodesAhead
    self.weights = weights
    self.modelDirectory = modelDirectory ?? .current
    self.configuredContextSize = max(contextSize ?? configuration.contextSize ?? 4096, 256)
    self.promptStateFolder = savesPromptStates ? configuration.promptStateFolder : nil
    self.samplingSeed = configuration.samplingSeed
    self.misnamedModel = LanguageModelWeights.misnamed(in: configuration)
  }

  /// The weights' name, such as `qwen-1.5b`.
  public var displayName: String { weights.name }

  /// Unavailable when the CPU cannot run the engine or the weights are not in the models folder.
  public var availability: SystemLanguageModel.Availability {
    if EngineHost.unsupportedReason != nil { return .unavailable(.deviceNotEligible) }
    if misnamedModel != nil || !weights.isInstalled(in: modelDirectory) { return .unavailable(.modelNotReady) }
    return .available
  }

  /// What is missing, in one line, or nil when the backend is available.
  public var unavailabilityExplanation: String? {
    switch availability {
    case .available: nil
    case .unavailable(let reason): explain(reason)
    }
  }

  func explain(_ reason: SystemLanguageModel.Availability.UnavailableReason) -> String {
    switch reason {
    case .deviceNotEligible: "this CPU cannot run the language model engine (it needs AVX2, FMA and F16C)"
    case .appleIntelligenceNotEnabled: "language model features are turned off"
    case .modelNotReady:
      misnamedModel ?? "the '\(weights.name)' language model is not installed in \(modelDirectory.url.path)"
    }
  }

  /// The configured context size (llama.cpp allocates exactly that many tokens).
  public func contextSize() async throws -> Int { configuredContextSize }

  /// The number of tokens `text` takes in the weights' vocabulary.
  public func tokenCount(for text: String) async throws -> Int {
    try await engine().tokenize(text).count
  }

  /// Loads the engine and evaluates the conversation of `request` into the KV cache, so a request
  /// that starts with the same messages only evaluates its new tokens.
  public func prewarm(_ request: LanguageModelRequest) async {
    guard !request.messages.isEmpty, let engine = try? engine() else { return }
    var messages = Self.llamaMessages(request.messages)
    if let toolbox = try? ToolGrammar(tools: request.tools) { messages = toolbox.addingDescriptions(to: messages) }
    // The formatted conversation ends with the assistant's cue; the next request shares every
    // token before it, so those keys and values are reused.
    guard let prefix = try? await engine.format(messages) else { return }
    try? await engine.prewarm(prefix)
  }

  /// Generates under the grammar of the response format (or of "a tool call or the answer" when
  /// tools are offered) and returns the answer or the tool call.
  public func respond(to request: LanguageModelRequest, onText: @escaping @Sendable (String) -> Void) async throws
    -> LanguageModelReply
  {
    let engine = try engine()
    let answerGrammar: String? =
      switch request.responseFormat {
      case .text: nil
      case .schema(let schema): try SchemaGrammar(schema).text
      case .jsonSchema(let text): try SchemaGrammar(jsonSchema: text).text
      }
    var messages = Self.llamaMessages(request.messages)
    let toolbox = try ToolGrammar(tools: request.tools)
    if let toolbox { messages = toolbox.addingDescriptions(to: messages) }
    let offerTools = toolbox != nil && request.offersTools
    let grammar =
      offerTools ? toolbox?.grammar(answer: answerGrammar, required: request.toolChoice == .required) : answerGrammar
    let generation: LlamaGeneration
    do {
      let formatted = try await engine.format(messages)
      var prefix: LlamaPrefix?
      if let promptStateFolder, messages.first?.role == "system" {
        let system = try await engine.format(Array(messages.prefix { $0.role == "system" }), addAssistant: false)
        if formatted.hasPrefix(system) {
          prefix = LlamaPrefix(text: system, folder: promptStateFolder, grammar: grammar)
        }
      }
      let cumulative = Mutex("")
      generation = try await engine.generate(
        prompt: formatted, grammar: grammar, sampling: request.options.engineSampling(defaultSeed: samplingSeed),
        maximumTokens: request.options.maximumResponseTokens, prefix: prefix, decodesAhead: decodesAhead,
        shouldStop: { Task.isCancelled },
        onText: { piece in
          let text = cumulative.withLock { text in
            text += piece
            return text
          }
          // A tool call is not part of the answer; answers never start with "<".
          if !(offerTools && text.hasPrefix("<")) { onText(text) }
          return true
        })
    } catch {
      throw LanguageModelSession.GenerationError(error)
    }
    let stopReason: LanguageModelReply.StopReason =
      switch generation.stopReason {
      case .endOfText: .endOfText
      case .tokenLimit: .tokenLimit
      case .contextFull: .contextFull
      case .cancelled, .stoppedByCaller: .cancelled
      }
    let timing = LanguageModelReply.Timing(generation.timing)
    if offerTools, let toolbox, let call = toolbox.parseCall(generation.text) {
      var reply = LanguageModelReply(
        text: "", toolCalls: [call], promptTokens: generation.promptTokens,
        generatedTokens: generation.generatedTokens, stopReason: stopReason)
      reply.timing = timing
      return reply
    }
    var reply = LanguageModelReply(
      text: generation.text, promptTokens: generation.promptTokens, generatedTokens: generation.generatedTokens,
      stopReason: stopReason)
    reply.timing = timing
    return reply
  }

  // MARK: - Engine

  private static let engines = Mutex<[String: LlamaEngine]>([:])

  /// The loaded engine for these weights, loading it on first use (shared by every backend).
  func engine() throws(LanguageModelSession.GenerationError) -> LlamaEngine {
    switch availability {
    case .available: break
    case .unavailable(let reason): throw .assetsUnavailable(.init(debugDescription: explain(reason)))
    }
    let path = weights.file(in: modelDirectory).path
    let key = "\(path)#\(configuredContextSize)"
    let threads = EngineHost.threadCount
    let contextSize = configuredContextSize
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

  /// The conversation in the layout the local model's chat template and tool grammar expect:
  /// tool calls as `<tool_call>` blocks, tool outputs as `<tool_response>` blocks in user turns.
  static func llamaMessages(_ messages: [LanguageModelMessage]) -> [LlamaMessage] {
    messages.map { message in
      switch message.role {
      case .system, .user:
        return LlamaMessage(role: message.role.rawValue, content: message.content)
      case .assistant:
        guard !message.toolCalls.isEmpty else { return LlamaMessage(role: "assistant", content: message.content) }
        let calls = message.toolCalls.map {
          "<tool_call>\n{\"name\": \(GeneratedContent(kind: .string($0.name)).jsonString), \"arguments\": \($0.arguments.jsonString)}\n</tool_call>"
        }
        return LlamaMessage(
          role: "assistant", content: ([message.content].filter { !$0.isEmpty } + calls).joined(separator: "\n"))
      case .tool:
        return LlamaMessage(role: "user", content: "<tool_response>\n\(message.content)\n</tool_response>")
      }
    }
  }
}
