/// What a backend generated for one request: the answer's text or the tool calls, token counts,
/// and why generation stopped.
public struct LanguageModelReply: Sendable, Equatable {
  /// Why generation stopped.
  public enum StopReason: Sendable, Equatable {
    /// The model finished its answer (or its tool call).
    case endOfText
    /// The answer reached ``GenerationOptions/maximumResponseTokens``.
    case tokenLimit
    /// The context window filled up.
    case contextFull
    /// The task was cancelled.
    case cancelled
  }

  /// The answer (JSON for a structured format); empty when the model called tools.
  public var text: String
  /// The tools the model called instead of answering; the caller runs them.
  public var toolCalls: [LanguageModelToolCall]
  /// Tokens of the formatted conversation.
  public var promptTokens: Int
  /// Tokens generated.
  public var generatedTokens: Int
  /// Why generation stopped.
  public var stopReason: StopReason
  /// Where the time went, when the backend measures it (the local one does).
  public var timing: Timing?
  /// The model's refusal, when it declined to answer (a server's `refusal` field); the session
  /// turns it into ``LanguageModelSession/GenerationError/refusal(_:_:)``.
  public var refusal: String?

  /// A reply.
  public init(
    text: String, toolCalls: [LanguageModelToolCall] = [], promptTokens: Int, generatedTokens: Int,
    stopReason: StopReason
  ) {
    self.text = text
    self.toolCalls = toolCalls
    self.promptTokens = promptTokens
    self.generatedTokens = generatedTokens
    self.stopReason = stopReason
  }
}
