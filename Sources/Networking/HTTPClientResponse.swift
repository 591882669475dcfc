/// A whole HTTP response, as ``HTTPClient/send(_:)`` returns it.
///
/// Any status is a response: check ``status`` (a 404 or a 500 does not throw).
public struct HTTPClientResponse: Sendable, Equatable {
  /// The status code, such as 200.
  public var status: Int
  /// The response headers by lowercased name; repeated headers are joined with ", ".
  public var headers: [String: String]
  /// The response body.
  public var body: [UInt8]

  /// The body as UTF-8 text (invalid bytes become U+FFFD).
  public var text: String { String(decoding: body, as: UTF8.self) }

  /// A response with the given status, headers and body.
  public init(status: Int, headers: [String: String], body: [UInt8]) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}
