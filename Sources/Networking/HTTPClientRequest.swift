import Foundation

/// An outbound HTTP request for ``HTTPClient``.
///
/// ```swift
/// let request = HTTPClientRequest(
///   method: "POST", url: URL(string: "http://127.0.0.1:8080/v1/chat/completions")!,
///   body: .json(try JSONEncoder().encode(chat)), timeout: .seconds(120))
/// let response = try await HTTPClient.shared.send(request)
/// ```
public struct HTTPClientRequest: Sendable {
  /// The request method, such as `"GET"` or `"POST"`.
  public var method: String
  /// The `http` or `https` URL to send the request to.
  public var url: URL
  /// Extra request headers. A `Content-Type` here replaces the one the body implies.
  public var headers: [String: String]
  /// The request body, if any.
  public var body: HTTPRequestBody?
  /// The most the whole request may take, from connecting to the last byte of the response
  /// (for a stream, the last byte of the stream). Zero or less means no limit.
  public var timeout: Duration
  /// The most connecting (TCP, and TLS for https) may take.
  public var connectTimeout: Duration

  /// A request to `url` with the given method, headers, body and time limits.
  public init(
    method: String = "GET", url: URL, headers: [String: String] = [:], body: HTTPRequestBody? = nil,
    timeout: Duration = .seconds(600), connectTimeout: Duration = .seconds(5)
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
    self.connectTimeout = connectTimeout
  }
}
