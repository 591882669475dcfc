import Foundation

/// The body of an ``HTTPClientRequest``.
public enum HTTPRequestBody: Sendable, Equatable {
  /// Raw bytes sent with the given `Content-Type`.
  case bytes([UInt8], contentType: String)
  /// An encoded JSON document, sent as `application/json`.
  case json(Data)
  /// A `multipart/form-data` form (file uploads); the client chooses the boundary.
  case multipart([MultipartPart])

  /// The `Content-Type` this body implies, or nil when the client sets it (multipart forms).
  var contentType: String? {
    switch self {
    case .bytes(_, let contentType): return contentType
    case .json: return "application/json"
    case .multipart: return nil
    }
  }
}
