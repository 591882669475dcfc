/// What runs a language model for ``SystemLanguageModel``: the local llama.cpp engine
/// (``LlamaBackend``) or an OpenAI-compatible server (``OpenAIChatBackend``).
///
/// Signatures use Swift types only. A backend answers one request at a time per call: it enforces
/// the request's ``LanguageModelRequest/responseFormat`` and, when the request offers tools,
/// returns the model's tool calls in ``LanguageModelReply/toolCalls`` instead of running them; the
/// caller (``LanguageModelSession``, or a server relaying a client's tools) runs them and sends
/// their outputs back as ``LanguageModelMessage/Role/tool`` messages in the next request.
///
/// ```swift
/// let backend = LlamaBackend(weights: .small)
/// let reply = try await backend.respond(
///   to: LanguageModelRequest(messages: [.init(role: .user, content: "Say hi.")])
/// ) { text in print(text) }
/// ```
public protocol LanguageModelBackend: Sendable {
  /// A short name for logs and transcripts: the weights' name, or the server's URL and model.
  var displayName: String { get }
  /// Whether the backend can answer now (a server: whether it is reachable).
  var availability: SystemLanguageModel.Availability { get }
  /// Why the backend cannot answer now, in one line, or nil when it can.
  var unavailabilityExplanation: String? { get }
  /// The tokens the model holds: instructions, conversation, prompt and response together.
  func contextSize() async throws -> Int
  /// The number of tokens `text` takes in the model's vocabulary.
  func tokenCount(for text: String) async throws -> Int
  /// Prepares for `request` (loads the model, evaluates the shared prefix); errors are ignored.
  func prewarm(_ request: LanguageModelRequest) async
  /// Generates the reply to `request`, calling `onText` with the cumulative text of the answer
  /// as it grows (never with the text of a tool call).
  func respond(to request: LanguageModelRequest, onText: @escaping @Sendable (String) -> Void) async throws
    -> LanguageModelReply
}
