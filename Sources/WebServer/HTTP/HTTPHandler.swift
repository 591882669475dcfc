import Foundation

/// How the server should take a request's body, decided from its head before the body arrives.
public enum HTTPBodyPolicy: Sendable {
  /// Keep up to `limit` bytes in memory.
  case memory(limit: Int)
  /// Write up to `limit` bytes to a new file in `folder` (for large uploads).
  case file(folder: URL, limit: Int64)
  /// Answer with this response without reading the body.
  case reject(HTTPResponse)
}

/// What the server calls for each request: the seam between the HTTP layer and the app.
public protocol HTTPHandler: Sendable {
  /// How to take the body of a request with this head.
  func bodyPolicy(for head: HTTPRequest.Head) -> HTTPBodyPolicy
  /// The response to a complete request.
  func respond(to request: HTTPRequest) async -> HTTPResponse
  /// The answer to a request the server itself fails (a body over its limit, an upload it
  /// could not store), in the handler's error shape for that request.
  func failure(_ status: Int, _ message: String, for head: HTTPRequest.Head) -> HTTPResponse
}

extension HTTPHandler {
  /// A one-line `{"error": "…"}`.
  public func failure(_ status: Int, _ message: String, for head: HTTPRequest.Head) -> HTTPResponse {
    .error(status, message)
  }
}
