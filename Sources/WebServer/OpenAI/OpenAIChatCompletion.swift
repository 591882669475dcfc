import Foundation
import LanguageModels

/// A chat completion in OpenAI's shapes: the whole answer (`chat.completion`) or the pieces of a
/// streamed one (`chat.completion.chunk`).
struct OpenAIChatCompletion: Sendable {
  /// The completion's identifier (`chatcmpl-…`), the same in every chunk of a stream.
  var id: String
  /// The model's name, as the client asked for it.
  var model: String
  /// When the request started, in seconds since 1970.
  var created: Int

  /// A new completion of `model`.
  init(model: String) {
    id = "chatcmpl-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(24)
    self.model = model
    created = Int(Date().timeIntervalSince1970)
  }

  /// The whole answer.
  func body(for reply: LanguageModelReply) -> Data {
    var message: [String: Any] = [
      "role": "assistant", "content": reply.toolCalls.isEmpty ? reply.text : NSNull(), "refusal": NSNull(),
    ]
    if !reply.toolCalls.isEmpty { message["tool_calls"] = Self.toolCalls(reply.toolCalls, indexed: false) }
    return Self.encode(
      header("chat.completion").merging([
        "choices": [["index": 0, "message": message, "logprobs": NSNull(), "finish_reason": Self.finishReason(reply)]],
        "usage": Self.usage(reply),
      ]) { $1 })
  }

  /// A chunk carrying `delta` (`role`, `content` or `tool_calls`), and the finish reason on the last.
  func chunk(delta: [String: Any], finishReason: String? = nil) -> Data {
    Self.encode(
      header("chat.completion.chunk").merging([
        "choices": [
          [
            "index": 0, "delta": delta, "logprobs": NSNull(),
            "finish_reason": finishReason.map { $0 as Any } ?? NSNull(),
          ]
        ]
      ]) { $1 })
  }

  /// The chunk that ends a stream: the tool calls (when the model made some) and the finish reason.
  func finalChunk(for reply: LanguageModelReply) -> Data {
    let delta: [String: Any] =
      reply.toolCalls.isEmpty ? [:] : ["tool_calls": Self.toolCalls(reply.toolCalls, indexed: true)]
    return chunk(delta: delta, finishReason: Self.finishReason(reply))
  }

  /// The chunk after the last, when the client asked for usage in the stream: no choices, the counts.
  func usageChunk(for reply: LanguageModelReply) -> Data {
    Self.encode(header("chat.completion.chunk").merging(["choices": [Any](), "usage": Self.usage(reply)]) { $1 })
  }

  private func header(_ object: String) -> [String: Any] {
    ["id": id, "object": object, "created": created, "model": model, "system_fingerprint": NSNull()]
  }

  /// `tool_calls` (OpenAI's finish reason for a tool call), `length` when the token limit or the
  /// context window cut the answer, else `stop`.
  static func finishReason(_ reply: LanguageModelReply) -> String {
    if !reply.toolCalls.isEmpty { return "tool_calls" }
    switch reply.stopReason {
    case .tokenLimit, .contextFull: return "length"
    case .endOfText, .cancelled: return "stop"
    }
  }

  static func usage(_ reply: LanguageModelReply) -> [String: Any] {
    [
      "prompt_tokens": reply.promptTokens, "completion_tokens": reply.generatedTokens,
      "total_tokens": reply.promptTokens + reply.generatedTokens,
    ]
  }

  static func toolCalls(_ calls: [LanguageModelToolCall], indexed: Bool) -> [[String: Any]] {
    calls.enumerated().map { index, call in
      var entry: [String: Any] = [
        "id": call.id, "type": "function", "function": ["name": call.name, "arguments": call.arguments.jsonString],
      ]
      if indexed { entry["index"] = index }
      return entry
    }
  }

  static func encode(_ object: [String: Any]) -> Data {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
  }
}
