import Foundation

/// What the server sends back.
public struct HTTPResponse: Sendable {
  /// The body of a response.
  public enum Body: Sendable {
    /// Bytes in memory.
    case data(Data)
    /// `length` bytes of a file from `offset` (served without reading it into memory).
    case file(URL, offset: Int64, length: Int64)
    /// Server-sent events, for as long as the stream stays open.
    case events(HTTPEventStream)
  }

  /// The status code.
  public var status: Int
  /// Headers, in order.
  public var headers: [(name: String, value: String)]
  /// The body.
  public var body: Body

  /// A response with `status`, `headers` and `body`.
  public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .data(Data())) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON response.
  public static func json(_ data: Data, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")], body: .data(data))
  }

  /// A one-line JSON error: `{"error": "…"}`.
  public static func error(_ status: Int, _ message: String, headers: [(name: String, value: String)] = [])
    -> HTTPResponse
  {
    let line = message.replacingOccurrences(of: "\n", with: " ")
    let data =
      (try? JSONSerialization.data(withJSONObject: ["error": line], options: [.withoutEscapingSlashes])) ?? Data()
    var response = json(data, status: status)
    response.headers += headers
    return response
  }

  /// The value of the header `name` (any case), when set.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }
}
