import Foundation

/// Why an ``HTTPClient`` request got no (whole) response. An HTTP error status is not one of
/// these: it is a response.
public enum HTTPClientError: Error, LocalizedError, Equatable, Sendable {
  /// No connection could be made: refused, the host name not found, the network unreachable.
  case cannotConnect(url: String, reason: String)
  /// The connect timeout or the whole request's timeout (`seconds`) passed.
  case timedOut(url: String, seconds: Double)
  /// The task making the request was cancelled (or the stream's reader went away).
  case cancelled
  /// The connection failed after it was made: dropped mid-response, a malformed response.
  case transport(url: String, reason: String)
  /// The URL is not an `http` or `https` URL with a host.
  case invalidURL(String)

  /// One line saying what went wrong, naming the URL, and what to check.
  public var errorDescription: String? {
    switch self {
    case .cannotConnect(let url, let reason):
      return "could not connect to \(url): \(reason); is the server running?"
    case .timedOut(let url, let seconds):
      return "\(url) did not answer within \(Self.format(seconds)) s; is the server busy, or is the timeout too short?"
    case .cancelled:
      return "the HTTP request was cancelled"
    case .transport(let url, let reason):
      return "the connection to \(url) failed: \(reason); did the server stop or crash?"
    case .invalidURL(let url):
      return "\(url) is not an http or https URL with a host"
    }
  }

  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
  }
}
