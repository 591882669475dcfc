import Foundation
import Observation
import Synchronization

/// A conversation with the language model: instructions, then turns of prompt and response.
///
/// Mirrors FoundationModels' `LanguageModelSession`. Responses can be plain text, a `@Generable`
/// type or any ``GenerationSchema``; the model's ``LanguageModelBackend`` enforces the schema
/// (locally, a grammar llama.cpp applies while sampling, so every guide holds by construction).
/// The session runs the tools the model calls and keeps the transcript; the local backend keeps
/// the KV cache between turns, so each turn only evaluates its new tokens.
///
/// ```swift
/// let session = LanguageModelSession(instructions: "You are a concise assistant.")
/// let answer = try await session.respond(to: "Name three desert plants.")
/// print(answer.content)
/// ```
///
/// It is `Observable`, as Apple's is: ``isResponding`` and ``transcript`` tell observers (SwiftUI
/// on Apple's platforms, `withObservationTracking` here) when a response starts and ends.
public final class LanguageModelSession: Observable, Sendable {
  /// The model that answers.
  public let model: SystemLanguageModel
  /// The tools the model may call.
  public let tools: [any Tool]
  private let state: Mutex<(transcript: Transcript, responding: Bool)>
  private let observers = ObservationRegistrar()

  /// A session with `model`, `tools` and optional `instructions`.
  public init(
    model: SystemLanguageModel = .default, guardrails: SystemLanguageModel.Guardrails = .default,
    tools: [any Tool] = [], instructions: Instructions? = nil
  ) {
    self.model = model
    self.tools = tools
    let entries: [Transcript.Entry] =
      instructions.map {
        [
          .instructions(
            Transcript.Instructions(
              segments: [.text(.init(content: $0.text))],
              toolDefinitions: tools.map { Transcript.ToolDefinition(tool: $0) }))
        ]
      } ?? []
    state = Mutex((Transcript(entries: entries), false))
  }

  /// A session whose instructions, if any, are a string.
  @_disfavoredOverload
  public convenience init(
    model: SystemLanguageModel = .default, guardrails: SystemLanguageModel.Guardrails = .default,
    tools: [any Tool] = [], instructions: String? = nil
  ) {
    self.init(model: model, guardrails: guardrails, tools: tools, instructions: instructions.map(Instructions.init))
  }

  /// A session whose instructions come from a result builder.
  public convenience init(
    model: SystemLanguageModel = .default, guardrails: SystemLanguageModel.Guardrails = .default,
    tools: [any Tool] = [], @InstructionsBuilder instructions: () throws -> Instructions
  ) rethrows {
    self.init(model: model, guardrails: guardrails, tools: tools, instructions: try instructions())
  }

  /// A session that resumes `transcript`.
  public init(
    model: SystemLanguageModel = .default, guardrails: SystemLanguageModel.Guardrails = .default,
    tools: [any Tool] = [], transcript: Transcript
  ) {
    self.model = model
    self.tools = tools
    state = Mutex((transcript, false))
  }

  /// The conversation so far.
  public var transcript: Transcript {
    observers.access(self, keyPath: \.transcript)
    return state.withLock { $0.transcript }
  }

  /// Whether the session is generating a response now.
  public var isResponding: Bool {
    observers.access(self, keyPath: \.isResponding)
    return state.withLock { $0.responding }
  }

  /// Loads the model and evaluates the instructions (and `promptPrefix`) into the KV cache, so
  /// the first response starts sooner. Returns at once; the work happens in the background.
  public func prewarm(promptPrefix: Prompt? = nil) {
    var messages = transcript.languageModelMessages
    if let promptPrefix { messages.append(LanguageModelMessage(role: .user, content: promptPrefix.text)) }
    guard model.isAvailable, !messages.isEmpty else { return }
    let request = LanguageModelRequest(
      messages: messages, tools: tools.map { LanguageModelToolSpecification(tool: $0) })
    let backend = model.backend
    Task.detached(priority: .utility) { await backend.prewarm(request) }
  }

  // MARK: - Text responses

  /// A response: the content, its raw form, and the transcript entries the turn added.
  public struct Response<Content> {
    /// What the model produced.
    public var content: Content
    /// The content as generated: a string for text, the decoded JSON for guided generation.
    public var rawContent: GeneratedContent
    /// The transcript entries of this turn (prompt, tool calls and outputs, response).
    public var transcriptEntries: ArraySlice<Transcript.Entry>
  }

  /// Answers `prompt` with text.
  public func respond(to prompt: String, options: GenerationOptions = GenerationOptions()) async throws -> Response<
    String
  > {
    try await respond(to: Prompt(prompt), options: options)
  }

  /// Answers `prompt` with text.
  public func respond(to prompt: Prompt, options: GenerationOptions = GenerationOptions()) async throws -> Response<
    String
  > {
    let turn = try await run(prompt: prompt, format: .text, schemaText: nil, options: options) { _ in }
    return Response(
      content: turn.text, rawContent: GeneratedContent(kind: .string(turn.text)), transcriptEntries: turn.entries)
  }

  /// Answers the prompt a result builder assembles.
  public func respond(
    options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
  ) async throws -> Response<String> {
    try await respond(to: try prompt(), options: options)
  }

  // MARK: - Turns

  /// What one turn produced.
  struct Turn {
    var text: String
    var entries: ArraySlice<Transcript.Entry>
    /// Whether generation stopped at `maximumResponseTokens` rather than at the end of the answer.
    var reachedTokenLimit: Bool
  }

  /// Runs one turn: sends the transcript plus `prompt` to the model's backend (the answer in
  /// `format`), calls `onText` with the cumulative text of the answer, and records the turn in
  /// the transcript.
  ///
  /// With tools, the backend may instead return tool calls: each call's tool runs, its output
  /// joins the conversation, and the backend is asked again, up to ``maximumToolRounds`` rounds;
  /// after that the model must answer.
  func run(
    prompt: Prompt, format: LanguageModelResponseFormat, schemaText: String?, options: GenerationOptions,
    onText: @escaping @Sendable (String) -> Void
  ) async throws -> Turn {
    try beginResponding()
    defer { observers.withMutation(of: self, keyPath: \.isResponding) { state.withLock { $0.responding = false } } }
    try model.checkAvailable()
    let backend = model.backend
    let before = transcript
    var userText = prompt.text
    let specifications = tools.map { LanguageModelToolSpecification(tool: $0) }
    if let schemaText {
      let lead =
        tools.isEmpty
        ? "Respond with JSON that follows this schema:"
        : "First call the tools you need. Once you have their results, respond with JSON that follows this schema:"
      userText += "\n\n\(lead)\n\(schemaText)"
    }
    var added: [Transcript.Entry] = [
      .prompt(Transcript.Prompt(segments: [.text(.init(content: prompt.text))], options: options))
    ]
    var rounds = 0
    while true {
      var messages = before.languageModelMessages
      messages.append(LanguageModelMessage(role: .user, content: userText))
      messages += Transcript(entries: Array(added.dropFirst())).languageModelMessages
      let request = LanguageModelRequest(
        messages: messages, tools: specifications, toolChoice: rounds < Self.maximumToolRounds ? .automatic : .none,
        responseFormat: format, options: options)
      let reply = try await backend.respond(to: request, onText: onText)
      if reply.stopReason == .contextFull {
        throw GenerationError.exceededContextWindowSize(
          .init(
            debugDescription:
              "\(reply.promptTokens + reply.generatedTokens) tokens, the limit is \(model.contextSize)"))
      }
      if let refusal = reply.refusal {
        let refused = Transcript.Response(assetIDs: [backend.displayName], segments: [.text(.init(content: refusal))])
        throw GenerationError.refusal(
          GenerationError.Refusal(transcriptEntries: before.entries + added + [.response(refused)], model: model),
          .init(debugDescription: refusal))
      }
      if !reply.toolCalls.isEmpty, rounds < Self.maximumToolRounds {
        rounds += 1
        var outputs: [Transcript.Entry] = []
        for call in reply.toolCalls {
          let output = try await invoke(call)
          outputs.append(
            .toolOutput(
              Transcript.ToolOutput(id: call.id, toolName: call.name, segments: [.text(.init(content: output))])))
        }
        let calls = reply.toolCalls.map { Transcript.ToolCall(id: $0.id, toolName: $0.name, arguments: $0.arguments) }
        added += [.toolCalls(Transcript.ToolCalls(calls))] + outputs
        continue
      }
      added.append(
        .response(
          Transcript.Response(assetIDs: [backend.displayName], segments: [.text(.init(content: reply.text))])))
      let entries = observers.withMutation(of: self, keyPath: \.transcript) {
        state.withLock { state -> ArraySlice<Transcript.Entry> in
          state.transcript.entries += added
          return state.transcript.entries.suffix(added.count)
        }
      }
      return Turn(text: reply.text, entries: entries, reachedTokenLimit: reply.stopReason == .tokenLimit)
    }
  }

  /// Runs the tool `call` names and returns its output as text.
  private func invoke(_ call: LanguageModelToolCall) async throws -> String {
    guard let tool = tools.first(where: { $0.name == call.name }) else {
      throw GenerationError.decodingFailure(.init(debugDescription: "no tool named \(call.name)"))
    }
    return try await Self.invoke(tool, arguments: call.arguments)
  }

  private static func invoke<T: Tool>(_ tool: T, arguments content: GeneratedContent) async throws -> String {
    do {
      let output = try await tool.call(arguments: try T.Arguments(content))
      return output.promptRepresentation.text
    } catch {
      throw ToolCallError(tool: tool, underlyingError: error)
    }
  }

  /// The most tool calls one response may make before the model must answer.
  static let maximumToolRounds = 5

  private func beginResponding() throws {
    let busy = observers.withMutation(of: self, keyPath: \.isResponding) {
      state.withLock { state -> Bool in
        if state.responding { return true }
        state.responding = true
        return false
      }
    }
    if busy {
      throw GenerationError.concurrentRequests(.init(debugDescription: "one request at a time per session"))
    }
  }
}

extension LanguageModelSession.Response: Sendable where Content: Sendable {}
