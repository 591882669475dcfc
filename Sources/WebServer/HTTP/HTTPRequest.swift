import Foundation

/// A request as the server received it: its head, and its body in memory or in a file.
public struct HTTPRequest: Sendable {
  /// What arrives before the body: enough to decide how to take the body.
  public struct Head: Sendable {
    /// `GET`, `POST`, …, upper case.
    public var method: String
    /// The path, percent-decoded, without the query.
    public var path: String
    /// The query's parameters, decoded (the first of repeated names).
    public var query: [String: String]
    /// The headers, names in lower case.
    public var headers: [String: String]
    /// Whether the request came over TLS.
    public var isSecure: Bool

    /// The value of the header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The body's declared length, when the client sent one.
    public var contentLength: Int64? { header("content-length").flatMap { Int64($0) } }

    /// The media type of the body without its parameters, in lower case (`audio/wav`).
    public var contentType: String? {
      header("content-type").map {
        String($0.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
      }
    }

    /// Creates a head.
    public init(
      method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
      isSecure: Bool = false
    ) {
      self.method = method
      self.path = path
      self.query = query
      self.headers = Dictionary(
        headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
      self.isSecure = isSecure
    }
  }

  /// The head.
  public var head: Head
  /// The body, when it was taken in memory.
  public var body: Data
  /// The file the body was written to, when it was taken as a file (the server removes it after
  /// the response, unless the handler moved it away).
  public var bodyFile: URL?

  /// Creates a request.
  public init(head: Head, body: Data = Data(), bodyFile: URL? = nil) {
    self.head = head
    self.body = body
    self.bodyFile = bodyFile
  }
}
