import Foundation
import LanguageModels
import Synchronization

/// `POST /v1/chat/completions` over the local language models: the request mapped onto a
/// ``LanguageModelBackend`` call (``LlamaBackend`` for the installed weights), one at a time per
/// model, answered whole or streamed as server-sent `data:` chunks ending with `data: [DONE]`.
struct OpenAIChatCompletions: Sendable {
  let catalog: OpenAIModelCatalog
  let queue: OpenAIModelQueue

  /// The answer to `request`.
  ///
  /// - Throws: an ``OpenAIError`` for an unknown model, a request the model cannot take or a
  ///   failed generation (before a stream has started; later failures end the stream with an
  ///   error chunk).
  func respond(to request: OpenAIChatRequest) async throws(OpenAIError) -> HTTPResponse {
    let weights = try await catalog.languageModel(named: request.model)
    let backend = LlamaBackend(weights: weights)
    let modelRequest = try request.languageModelRequest()
    let completion = OpenAIChatCompletion(model: weights.name)
    let turn = "language:\(weights.name)"
    if request.stream {
      return stream(
        modelRequest, backend: backend, completion: completion, turn: turn, usage: request.streamIncludesUsage)
    }
    do {
      let reply = try await queue.run(turn) { try await backend.respond(to: modelRequest) { _ in } }
      return .json(completion.body(for: reply))
    } catch {
      throw Self.failure(error)
    }
  }

  /// Starts generating into an event stream and returns it at once: each new piece of text is a
  /// chunk; the last chunk has the finish reason (and the tool calls); then `[DONE]`. A client
  /// that goes away cancels the generation.
  private func stream(
    _ request: LanguageModelRequest, backend: LlamaBackend, completion: OpenAIChatCompletion, turn: String,
    usage: Bool
  ) -> HTTPResponse {
    let task = Mutex<Task<Void, Never>?>(nil)
    let events = HTTPEventStream(onClose: { task.withLock { $0?.cancel() } })
    let queue = self.queue
    let offersTools = !request.tools.isEmpty && request.toolChoice != .none
    @Sendable func send(_ data: Data) { events.send(data: String(decoding: data, as: UTF8.self)) }
    send(completion.chunk(delta: ["role": "assistant", "content": ""]))
    let work = Task {
      let sent = Mutex(0)
      do {
        let reply = try await queue.run(turn) {
          try await backend.respond(to: request) { text in
            // An answer that may turn out to be a tool call written as JSON is held back until
            // the reply says which it is.
            if offersTools, let first = text.first(where: { !$0.isWhitespace }), first == "{" || first == "`" {
              return
            }
            // Cumulative text: send what is new since the last piece.
            let piece: Substring? = sent.withLock { count in
              guard text.count > count else { return nil }
              defer { count = text.count }
              return text.dropFirst(count)
            }
            if let piece { send(completion.chunk(delta: ["content": String(piece)])) }
          }
        }
        if reply.toolCalls.isEmpty, reply.text.count > sent.withLock({ $0 }) {
          send(completion.chunk(delta: ["content": String(reply.text.dropFirst(sent.withLock { $0 }))]))
        }
        send(completion.finalChunk(for: reply))
        if usage { send(completion.usageChunk(for: reply)) }
        events.send(data: "[DONE]")
      } catch {
        let failure = Self.failure(error)
        send(failure.json)
      }
      events.close()
    }
    task.withLock { $0 = work }
    return HTTPResponse(
      status: 200,
      headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")],
      body: .events(events))
  }

  /// An engine's error as an OpenAI error: what the client can change is a 400, a model that
  /// cannot load a 503, anything else a 500 (logged).
  static func failure(_ error: any Error) -> OpenAIError {
    guard let error = error as? LanguageModelSession.GenerationError else {
      FileHandle.standardError.write(Data("voicenotes serve: chat completion failed: \(error)\n".utf8))
      return OpenAIError(500, "the model could not answer; the server's log (standard error) says why")
    }
    let message = error.errorDescription ?? "\(error)"
    switch error {
    case .exceededContextWindowSize:
      return OpenAIError(400, message, param: "messages", code: "context_length_exceeded")
    case .unsupportedGuide:
      return OpenAIError(400, message, param: "response_format")
    case .unsupportedLanguageOrLocale, .guardrailViolation, .refusal:
      return OpenAIError(400, message)
    case .assetsUnavailable:
      return OpenAIError(503, message)
    case .concurrentRequests, .rateLimited:
      return OpenAIError(429, message)
    default:
      return OpenAIError(500, message)
    }
  }
}
