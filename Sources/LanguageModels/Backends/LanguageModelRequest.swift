/// One request to a ``LanguageModelBackend``: the conversation, the tools offered, the format of
/// the answer and the sampling options.
public struct LanguageModelRequest: Sendable {
  /// Whether the model may, must or must not call a tool.
  public enum ToolChoice: Sendable, Equatable {
    /// The model calls a tool or answers, as it sees fit.
    case automatic
    /// The model answers without calling a tool (the tools are still described).
    case none
    /// The model calls one of the tools.
    case required
  }

  /// The conversation, oldest first: system, user, assistant and tool messages.
  public var messages: [LanguageModelMessage]
  /// The tools the model may call; their calls come back in the reply.
  public var tools: [LanguageModelToolSpecification]
  /// Whether a tool call is allowed, required or not allowed (ignored without tools).
  public var toolChoice: ToolChoice
  /// The shape the answer must have.
  public var responseFormat: LanguageModelResponseFormat
  /// Sampling, temperature and length.
  public var options: GenerationOptions

  /// A request; only `messages` is required.
  public init(
    messages: [LanguageModelMessage], tools: [LanguageModelToolSpecification] = [],
    toolChoice: ToolChoice = .automatic, responseFormat: LanguageModelResponseFormat = .text,
    options: GenerationOptions = GenerationOptions()
  ) {
    self.messages = messages
    self.tools = tools
    self.toolChoice = toolChoice
    self.responseFormat = responseFormat
    self.options = options
  }

  /// Whether the model may call a tool in this request.
  var offersTools: Bool { !tools.isEmpty && toolChoice != .none }
}
