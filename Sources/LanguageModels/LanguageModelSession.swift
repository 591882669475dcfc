import Foundation
import Synchronization

/// A conversation with the language model: instructions, then turns of prompt and response.
///
/// Mirrors FoundationModels' `LanguageModelSession`. Responses can be plain text, a `@Generable`
/// type or any ``GenerationSchema``; for the latter two the schema is compiled to a grammar that
/// llama.cpp enforces while sampling, so every guide holds by construction. The KV cache is kept
/// between turns, so each turn only evaluates its new tokens.
///
/// ```swift
/// let session = LanguageModelSession(instructions: "You are a concise assistant.")
/// let answer = try await session.respond(to: "Name three desert plants.")
/// print(answer.content)
/// ```
public final class LanguageModelSession: Sendable {
  /// The model that answers.
  public let model: SystemLanguageModel
  /// The tools the model may call.
  public let tools: [any Tool]
  private let state: Mutex<(transcript: Transcript, responding: Bool)>

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

  /// A session whose instructions are a string.
  public convenience init(
    model: SystemLanguageModel = .default, guardrails: SystemLanguageModel.Guardrails = .default,
    tools: [any Tool] = [], instructions: String
  ) {
    self.init(model: model, guardrails: guardrails, tools: tools, instructions: Instructions(instructions))
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
  public var transcript: Transcript { state.withLock { $0.transcript } }

  /// Whether the session is generating a response now.
  public var isResponding: Bool { state.withLock { $0.responding } }

  /// Loads the model and evaluates the instructions (and `promptPrefix`) into the KV cache, so
  /// the first response starts sooner. Returns at once; the work happens in the background.
  public func prewarm(promptPrefix: Prompt? = nil) {
    var messages = transcript.messages
    if let toolbox = try? ToolGrammar(tools: tools) { messages = toolbox.addingDescriptions(to: messages) }
    if let promptPrefix { messages.append(LlamaMessage(role: "user", content: promptPrefix.text)) }
    let model = model
    Task.detached(priority: .utility) { [messages] in
      guard let engine = try? model.engine(), !messages.isEmpty else { return }
      // The formatted conversation ends with the assistant's cue; the next request shares every
      // token before it, so those keys and values are reused.
      guard let prefix = try? await engine.format(messages) else { return }
      try? await engine.prewarm(prefix)
    }
  }

  // MARK: - Text responses

  /// A response: the content, its raw form, and the transcript entries the turn added.
  public struct Response<Content: Sendable>: Sendable {
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
    let turn = try await run(prompt: prompt, grammar: nil, schemaText: nil, options: options) { _ in }
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

  /// Runs one turn: formats the transcript plus `prompt`, generates (under `grammar` when given),
  /// calls `onText` with the cumulative text of the answer, and records the turn in the transcript.
  ///
  /// With tools, each generation may instead be a tool call (the grammar offers both): the call's
  /// arguments are decoded, the tool runs, its output joins the conversation, and generation
  /// continues, up to ``maximumToolRounds`` calls.
  func run(
    prompt: Prompt, grammar: String?, schemaText: String?, options: GenerationOptions,
    onText: @escaping @Sendable (String) -> Void
  ) async throws -> Turn {
    try beginResponding()
    defer { state.withLock { $0.responding = false } }
    let engine = try model.engine()
    let before = transcript
    var userText = prompt.text
    let toolbox = try ToolGrammar(tools: tools)
    if let schemaText {
      let lead =
        toolbox == nil
        ? "Respond with JSON that follows this schema:"
        : "First call the tools you need. Once you have their results, respond with JSON that follows this schema:"
      userText += "\n\n\(lead)\n\(schemaText)"
    }
    var added: [Transcript.Entry] = [
      .prompt(Transcript.Prompt(segments: [.text(.init(content: prompt.text))], options: options))
    ]
    var rounds = 0
    while true {
      let offerTools = toolbox != nil && rounds < Self.maximumToolRounds
      var messages = before.messages
      if let toolbox {
        messages = toolbox.addingDescriptions(to: messages)
      }
      messages.append(LlamaMessage(role: "user", content: userText))
      messages += Transcript(entries: Array(added.dropFirst())).messages
      let roundGrammar = offerTools ? toolbox?.grammar(answer: grammar) : grammar
      let generation: LlamaGeneration
      do {
        let formatted = try await engine.format(messages)
        var cumulative = ""
        generation = try await engine.generate(
          prompt: formatted, grammar: roundGrammar, sampling: options.engineSampling,
          maximumTokens: options.maximumResponseTokens, shouldStop: { Task.isCancelled },
          onText: { piece in
            cumulative += piece
            // A tool call is not part of the answer; answers never start with "<".
            if !(offerTools && cumulative.hasPrefix("<")) { onText(cumulative) }
            return true
          })
      } catch {
        throw GenerationError(error)
      }
      if generation.stopReason == .contextFull {
        throw GenerationError.exceededContextWindowSize(
          .init(
            debugDescription:
              "\(generation.promptTokens + generation.generatedTokens) tokens, the limit is \(model.contextSize)"))
      }
      if offerTools, let toolbox, let call = toolbox.parseCall(generation.text) {
        rounds += 1
        let output = try await toolbox.invoke(call)
        added += [
          .toolCalls(Transcript.ToolCalls([call])),
          .toolOutput(Transcript.ToolOutput(toolName: call.toolName, segments: [.text(.init(content: output))])),
        ]
        continue
      }
      added.append(
        .response(
          Transcript.Response(assetIDs: [model.weights.name], segments: [.text(.init(content: generation.text))])))
      let entries = state.withLock { state -> ArraySlice<Transcript.Entry> in
        state.transcript.entries += added
        return state.transcript.entries.suffix(added.count)
      }
      return Turn(text: generation.text, entries: entries, reachedTokenLimit: generation.stopReason == .tokenLimit)
    }
  }

  /// The most tool calls one response may make before the model must answer.
  static let maximumToolRounds = 5

  private func beginResponding() throws {
    let busy = state.withLock { state -> Bool in
      if state.responding { return true }
      state.responding = true
      return false
    }
    if busy {
      throw GenerationError.concurrentRequests(.init(debugDescription: "one request at a time per session"))
    }
  }
}
