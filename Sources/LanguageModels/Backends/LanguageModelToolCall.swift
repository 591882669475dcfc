/// A tool call the model made: which tool, with which arguments.
public struct LanguageModelToolCall: Sendable, Equatable {
  /// The call's identifier; the tool's output message names it in ``LanguageModelMessage/toolCallID``.
  public var id: String
  /// The tool's name.
  public var name: String
  /// The arguments, decoded from the JSON the model wrote.
  public var arguments: GeneratedContent

  /// A call of `name` with `arguments`.
  public init(id: String, name: String, arguments: GeneratedContent) {
    self.id = id
    self.name = name
    self.arguments = arguments
  }
}
