import Foundation

/// A failure talking to a language-model server that is not one of Apple's generation errors
/// (those, such as a full context or a rate limit, are thrown as
/// ``LanguageModelSession/GenerationError``). Each message names the server.
public enum LanguageModelServerError: Error, LocalizedError, Equatable {
  /// No connection could be made.
  case unreachable(url: String, reason: String)
  /// The server did not answer in time.
  case timedOut(url: String, seconds: Double)
  /// The connection broke before the answer was complete (the server stopped, for instance).
  case connectionLost(url: String, reason: String)
  /// The server answered with an error status.
  case status(url: String, code: Int, message: String)
  /// The server's answer is not what the OpenAI API describes.
  case invalidResponse(url: String, detail: String)
  /// The server has no tokenize endpoint, so tokens cannot be counted exactly.
  case tokenizationUnsupported(url: String)

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .unreachable(let url, let reason):
      "the language model server at \(url) is not reachable (\(reason)); start it or check the address"
    case .timedOut(let url, let seconds):
      "the language model server at \(url) did not answer within \(Self.seconds(seconds)) s; it may be overloaded"
    case .connectionLost(let url, let reason):
      "the connection to the language model server at \(url) broke before the answer was complete (\(reason))"
    case .status(let url, let code, let message):
      "the language model server at \(url) answered \(code): \(message.isEmpty ? "no message" : message)"
    case .invalidResponse(let url, let detail):
      "the language model server at \(url) sent an answer that is not OpenAI-compatible: \(detail)"
    case .tokenizationUnsupported(let url):
      "the language model server at \(url) has no /tokenize endpoint, so tokens cannot be counted; use a llama.cpp server or the local model"
    }
  }

  private static func seconds(_ value: Double) -> String {
    value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
  }
}
