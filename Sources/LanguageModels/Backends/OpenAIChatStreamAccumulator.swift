import Foundation

/// Assembles a `/v1/chat/completions` answer from its server-sent events (`stream: true`): the
/// content deltas into the cumulative text, the `tool_calls` fragments (by index: an id and a
/// name first, then pieces of the arguments' JSON) into whole calls, and the finish reason and
/// token usage of the last chunks. A non-streamed answer (one `message`) is read the same way.
struct OpenAIChatStreamAccumulator: Sendable {
  /// One tool call being assembled.
  struct PartialToolCall: Sendable, Equatable {
    var id: String?
    var name: String = ""
    var arguments: String = ""
  }

  /// The answer's text so far.
  private(set) var text = ""
  /// The tool calls so far, in index order.
  private(set) var toolCalls: [PartialToolCall] = []
  /// `stop`, `length`, `tool_calls`… once the server has sent it.
  private(set) var finishReason: String?
  /// Tokens of the prompt, when the server reported usage.
  private(set) var promptTokens: Int?
  /// Tokens generated, when the server reported usage.
  private(set) var generatedTokens: Int?
  /// The model's refusal so far (OpenAI's `refusal` field), empty when it did not refuse.
  private(set) var refusal = ""
  /// Whether the `[DONE]` event arrived.
  private(set) var isDone = false

  /// Reads one event's data; returns whether the text grew. Throws the server's error when the
  /// event carries one (a server that fails mid-stream sends `{"error": …}`).
  mutating func add(_ data: String) throws(OpenAIChatFailure) -> Bool {
    let trimmed = data.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { return false }
    if trimmed == "[DONE]" {
      isDone = true
      return false
    }
    guard let object = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8)) as? [String: Any] else {
      throw .invalid("an event is not a JSON object: \(trimmed.prefix(200))")
    }
    if let error = object["error"] {
      throw .fromServer(status: nil, error: error)
    }
    if let usage = object["usage"] as? [String: Any] {
      promptTokens = (usage["prompt_tokens"] as? NSNumber)?.intValue ?? promptTokens
      generatedTokens = (usage["completion_tokens"] as? NSNumber)?.intValue ?? generatedTokens
    }
    var grew = false
    for choice in object["choices"] as? [[String: Any]] ?? [] {
      if let reason = choice["finish_reason"] as? String { finishReason = reason }
      guard let delta = (choice["delta"] ?? choice["message"]) as? [String: Any] else { continue }
      if let content = delta["content"] as? String, !content.isEmpty {
        text += content
        grew = true
      }
      if let refused = delta["refusal"] as? String { refusal += refused }
      for (position, fragment) in (delta["tool_calls"] as? [[String: Any]] ?? []).enumerated() {
        let index = (fragment["index"] as? NSNumber)?.intValue ?? position
        guard index >= 0, index < 128 else { throw .invalid("a tool call index \(index) is out of range") }
        while toolCalls.count <= index { toolCalls.append(PartialToolCall()) }
        if let id = fragment["id"] as? String, !id.isEmpty { toolCalls[index].id = id }
        if let function = fragment["function"] as? [String: Any] {
          if let name = function["name"] as? String { toolCalls[index].name += name }
          if let arguments = function["arguments"] as? String { toolCalls[index].arguments += arguments }
        }
      }
    }
    return grew
  }

  /// The assembled tool calls, their arguments decoded.
  func decodedToolCalls() throws(OpenAIChatFailure) -> [LanguageModelToolCall] {
    try toolCalls.enumerated().map { (index, call) throws(OpenAIChatFailure) -> LanguageModelToolCall in
      guard !call.name.isEmpty else { throw .invalid("tool call \(index) has no function name") }
      let json = call.arguments.trimmingCharacters(in: .whitespacesAndNewlines)
      let arguments: GeneratedContent
      do {
        arguments = try GeneratedContent(json: json.isEmpty ? "{}" : json)
      } catch {
        throw .unusable("the arguments of the call to \(call.name) are not JSON: \(json.prefix(200))")
      }
      return LanguageModelToolCall(id: call.id ?? "call-\(UUID().uuidString)", name: call.name, arguments: arguments)
    }
  }
}
