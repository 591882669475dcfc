import Foundation

/// What went wrong with one `/v1/chat/completions` exchange, before it becomes the error the
/// caller sees (``errorForCaller(url:)``): HTTP error statuses with the server's error object,
/// answers that break the protocol, and answers that break the requested format (retried).
enum OpenAIChatFailure: Error {
  /// An error status (nil inside a stream) with the server's message and error type.
  case server(status: Int?, message: String, type: String?)
  /// The answer does not follow the OpenAI API.
  case invalid(String)
  /// The answer follows the API but not the requested format or tool schema; worth another try.
  case unusable(String)

  /// The failure for an error status `status` whose body is `body` (JSON text or plain text).
  static func fromServer(status: Int?, body text: String) -> OpenAIChatFailure {
    let body = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) ?? text
    return fromServer(status: status, error: body)
  }

  /// The failure for an error status `status` whose body (or `error` value) is `body`.
  static func fromServer(status: Int?, error body: Any) -> OpenAIChatFailure {
    .server(
      status: status, message: message(in: body).trimmingCharacters(in: .whitespacesAndNewlines),
      type: type(in: body))
  }

  /// The server's error message: `error.message`, a string `error`, or the body's text.
  static func message(in body: Any?) -> String {
    if let object = body as? [String: Any] {
      if let error = object["error"] { return message(in: error) }
      if let message = object["message"] as? String { return message }
    }
    if let text = body as? String { return text }
    guard let body, JSONSerialization.isValidJSONObject(body),
      let data = try? JSONSerialization.data(withJSONObject: body)
    else { return "" }
    return String(decoding: data, as: UTF8.self)
  }

  /// The error type the server named (`error.type`), such as llama-server's `exceed_context_size_error`.
  static func type(in body: Any?) -> String? {
    guard let object = body as? [String: Any] else { return nil }
    if let error = object["error"] { return type(in: error) }
    return object["type"] as? String
  }

  /// The error thrown to the caller: Apple's generation errors where one fits (429 ->
  /// `rateLimited`, a context overflow -> `exceededContextWindowSize`), else a server error with
  /// the status and the server's message.
  func errorForCaller(url: String) -> any Error {
    switch self {
    case .server(let status, let message, let type):
      let type = type ?? ""
      let lowered = (message + " " + type).lowercased()
      if status == 429 || type == "rate_limit_exceeded" {
        return LanguageModelSession.GenerationError.rateLimited(.init(debugDescription: "\(url): \(message)"))
      }
      if type == "exceed_context_size_error"
        || ((status == 400 || status == nil) && lowered.contains("context")
          && (lowered.contains("exceed") || lowered.contains("too long") || lowered.contains("maximum")))
      {
        return LanguageModelSession.GenerationError.exceededContextWindowSize(
          .init(debugDescription: "\(url): \(message)"))
      }
      return LanguageModelServerError.status(url: url, code: status ?? 500, message: message)
    case .invalid(let detail):
      return LanguageModelServerError.invalidResponse(url: url, detail: detail)
    case .unusable(let detail):
      return LanguageModelSession.GenerationError.decodingFailure(.init(debugDescription: "\(url): \(detail)"))
    }
  }
}
