/// The history of a session: instructions, prompts, tool calls and their output, and responses.
///
/// A session's transcript grows with each turn; creating a session from a transcript resumes
/// the conversation.
public struct Transcript: Sendable, Equatable, RandomAccessCollection {
  /// One entry of the history.
  public enum Entry: Sendable, Equatable {
    /// The instructions the session started with.
    case instructions(String)
    /// A user prompt.
    case prompt(String)
    /// Tools the model called, with their arguments as JSON.
    case toolCalls([ToolCall])
    /// A tool's output.
    case toolOutput(toolName: String, output: String)
    /// A model response (JSON text for guided generation).
    case response(String)
  }

  /// One call the model made to a tool.
  public struct ToolCall: Sendable, Equatable {
    /// The tool's name.
    public var toolName: String
    /// The arguments, as JSON.
    public var arguments: String

    /// A call of `toolName` with `arguments` (JSON).
    public init(toolName: String, arguments: String) {
      self.toolName = toolName
      self.arguments = arguments
    }
  }

  /// The entries in order.
  public var entries: [Entry]

  /// A transcript holding `entries`.
  public init(entries: [Entry] = []) { self.entries = entries }

  /// The index of the first entry.
  public var startIndex: Int { entries.startIndex }
  /// One past the index of the last entry.
  public var endIndex: Int { entries.endIndex }
  /// The entry at `position`.
  public subscript(position: Int) -> Entry { entries[position] }

  /// The conversation as chat messages for the model's template.
  var messages: [LlamaMessage] {
    entries.map { entry in
      switch entry {
      case .instructions(let text): LlamaMessage(role: "system", content: text)
      case .prompt(let text): LlamaMessage(role: "user", content: text)
      case .response(let text): LlamaMessage(role: "assistant", content: text)
      case .toolCalls(let calls):
        LlamaMessage(
          role: "assistant",
          content: calls.map {
            "<tool_call>\n{\"name\": \"\($0.toolName)\", \"arguments\": \($0.arguments)}\n</tool_call>"
          }
          .joined(separator: "\n"))
      case .toolOutput(_, let output):
        LlamaMessage(role: "user", content: "<tool_response>\n\(output)\n</tool_response>")
      }
    }
  }
}
