/// One message of a conversation sent to a ``LanguageModelBackend``.
public struct LanguageModelMessage: Sendable, Equatable {
  /// Who wrote the message.
  public enum Role: String, Sendable, Equatable {
    /// Instructions.
    case system
    /// The person (or program) asking.
    case user
    /// The model: an answer, or tool calls.
    case assistant
    /// A tool's output, answering the call ``LanguageModelMessage/toolCallID``.
    case tool
  }

  /// Who wrote the message.
  public var role: Role
  /// The text (empty for an assistant turn that only calls tools).
  public var content: String
  /// The tools an assistant turn called.
  public var toolCalls: [LanguageModelToolCall]
  /// For a tool message: the identifier of the call it answers.
  public var toolCallID: String?
  /// For a tool message: the name of the tool that produced it.
  public var toolName: String?

  /// A message from `role` with `content`.
  public init(
    role: Role, content: String, toolCalls: [LanguageModelToolCall] = [], toolCallID: String? = nil,
    toolName: String? = nil
  ) {
    self.role = role
    self.content = content
    self.toolCalls = toolCalls
    self.toolCallID = toolCallID
    self.toolName = toolName
  }
}
