import Foundation

/// A failure of an OpenAI-compatible route, answered in OpenAI's error shape on one line:
/// `{"error":{"message":"…","type":"invalid_request_error","param":"model","code":"model_not_found"}}`.
struct OpenAIError: Error, Sendable, Equatable {
  /// The HTTP status.
  var status: Int
  /// One line saying what went wrong and what to do.
  var message: String
  /// OpenAI's error type: `invalid_request_error`, `authentication_error`, `server_error`, ….
  var type: String
  /// The request field at fault, when one is.
  var param: String?
  /// A machine-readable code (`model_not_found`, `invalid_api_key`), when there is one.
  var code: String?
  /// The methods the route takes, for a 405's `Allow` header.
  var allow: String?

  init(_ status: Int, _ message: String, type: String? = nil, param: String? = nil, code: String? = nil) {
    self.status = status
    self.message = message.replacingOccurrences(of: "\n", with: " ")
    self.type = type ?? Self.type(for: status)
    self.param = param
    self.code = code
  }

  /// A 400 for a field that is missing or wrong.
  static func invalid(_ message: String, param: String? = nil) -> OpenAIError {
    OpenAIError(400, message, param: param)
  }

  /// A 404 for a model this server does not have installed.
  static func modelNotFound(_ message: String) -> OpenAIError {
    OpenAIError(404, message, param: "model", code: "model_not_found")
  }

  /// The error as a JSON response.
  var response: HTTPResponse {
    var response = HTTPResponse.json(json, status: status)
    if let allow { response.headers.append(("Allow", allow)) }
    return response
  }

  /// `{"error":{…}}` on one line.
  var json: Data {
    func value(_ text: String?) -> Any { text.map { $0 as Any } ?? NSNull() }
    let body: [String: Any] = [
      "error": ["message": message, "type": type, "param": value(param), "code": value(code)]
    ]
    return (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes]))
      ?? Data()
  }

  /// OpenAI's error type for a status.
  static func type(for status: Int) -> String {
    switch status {
    case 401: "authentication_error"
    case 403: "permission_error"
    case 429: "rate_limit_error"
    case 400..<500: "invalid_request_error"
    case 503: "service_unavailable"
    default: "server_error"
    }
  }
}
