import Foundation

/// A session's history, in FoundationModels' shape: the instructions, each prompt, the tool
/// calls and their outputs, and each response, in order.
///
/// A transcript can start a new session that carries on the conversation
/// (`LanguageModelSession(model:tools:transcript:)`).
public struct Transcript: Sendable, Equatable, Codable, RandomAccessCollection {
  /// One entry of the history.
  public enum Entry: Sendable, Equatable, Codable, Identifiable, CustomStringConvertible {
    /// The instructions the session started with.
    case instructions(Instructions)
    /// A user prompt.
    case prompt(Prompt)
    /// Tools the model called.
    case toolCalls(ToolCalls)
    /// A tool's output.
    case toolOutput(ToolOutput)
    /// A model response.
    case response(Response)

    /// The entry's identifier.
    public var id: String {
      switch self {
      case .instructions(let entry): entry.id
      case .prompt(let entry): entry.id
      case .toolCalls(let entry): entry.id
      case .toolOutput(let entry): entry.id
      case .response(let entry): entry.id
      }
    }

    /// The entry as text: its segments' text, or the calls as JSON.
    public var description: String {
      switch self {
      case .instructions(let entry): entry.segments.text
      case .prompt(let entry): entry.segments.text
      case .toolCalls(let calls): calls.map { "\($0.toolName)(\($0.arguments.jsonString))" }.joined(separator: "\n")
      case .toolOutput(let entry): entry.segments.text
      case .response(let entry): entry.segments.text
      }
    }
  }

  /// The entries in order.
  public var entries: [Entry]

  /// A transcript holding `entries`.
  public init(entries: some Sequence<Entry> = []) { self.entries = Array(entries) }

  /// The index of the first entry.
  public var startIndex: Int { entries.startIndex }
  /// One past the index of the last entry.
  public var endIndex: Int { entries.endIndex }
  /// The entry at `position`.
  public subscript(position: Int) -> Entry { entries[position] }

  /// The conversation as a backend's messages: tool calls as assistant turns that call tools,
  /// tool outputs as tool messages answering the call with the same identifier.
  var languageModelMessages: [LanguageModelMessage] {
    entries.map { entry in
      switch entry {
      case .instructions(let instructions): LanguageModelMessage(role: .system, content: instructions.segments.text)
      case .prompt(let prompt): LanguageModelMessage(role: .user, content: prompt.segments.text)
      case .response(let response): LanguageModelMessage(role: .assistant, content: response.segments.text)
      case .toolCalls(let calls):
        LanguageModelMessage(
          role: .assistant, content: "",
          toolCalls: calls.map { LanguageModelToolCall(id: $0.id, name: $0.toolName, arguments: $0.arguments) })
      case .toolOutput(let output):
        LanguageModelMessage(
          role: .tool, content: output.segments.text, toolCallID: output.id, toolName: output.toolName)
      }
    }
  }
}

extension [Transcript.Segment] {
  /// The segments as one text: text as it is, structured content as its JSON.
  var text: String {
    map { segment in
      switch segment {
      case .text(let text): text.content
      case .structure(let structure): structure.content.jsonString
      }
    }
    .joined()
  }
}
