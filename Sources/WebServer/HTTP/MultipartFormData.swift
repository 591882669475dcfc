import Foundation

/// A `multipart/form-data` body split into its parts (RFC 7578): what an OpenAI client sends to
/// upload a file with form fields.
///
/// ```swift
/// let form = try MultipartFormData(body, contentType: head.header("content-type") ?? "")
/// let file = form.part(named: "file")
/// ```
struct MultipartFormData: Sendable {
  /// One field or file.
  struct Part: Sendable {
    /// The field's name (`file`, `model`).
    var name: String
    /// The file name the client gave, for file parts.
    var fileName: String?
    /// The part's media type, when given.
    var contentType: String?
    /// The part's bytes.
    var data: Data

    /// The bytes as UTF-8 text, for plain fields.
    var text: String { String(decoding: data, as: UTF8.self) }
  }

  /// Why a body is not a form this parser can read.
  enum ParseError: Error, Equatable {
    /// The Content-Type names no boundary.
    case noBoundary
    /// The body does not start with the boundary, or a part is cut short.
    case malformed(String)
  }

  /// The parts in the order sent.
  var parts: [Part]

  /// Splits `body`, sent with the `Content-Type` header `contentType`.
  init(_ body: Data, contentType: String) throws(ParseError) {
    guard let boundary = Self.boundary(in: contentType) else { throw .noBoundary }
    let delimiter = Data("--\(boundary)".utf8)
    let separator = Data("\r\n--\(boundary)".utf8)
    let headEnd = Data("\r\n\r\n".utf8)
    guard let first = body.firstRange(of: delimiter) else {
      throw .malformed("the body does not contain the boundary its Content-Type names")
    }
    var parts: [Part] = []
    var cursor = first.upperBound
    while true {
      let rest = body[cursor...]
      if rest.starts(with: Data("--".utf8)) { break }
      guard rest.starts(with: Data("\r\n".utf8)) else { throw .malformed("a boundary is not followed by a line end") }
      let headStart = cursor + 2
      guard let headRange = body[headStart...].firstRange(of: headEnd) else {
        throw .malformed("a part's headers do not end")
      }
      let headText = String(decoding: body[headStart..<headRange.lowerBound], as: UTF8.self)
      guard let end = body[headRange.upperBound...].firstRange(of: separator) else {
        throw .malformed("a part does not end with the boundary (the body may be cut short)")
      }
      var headers: [String: String] = [:]
      for line in headText.components(separatedBy: "\r\n") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
          line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
      let disposition = Self.parameters(of: headers["content-disposition"] ?? "")
      guard let name = disposition["name"] else { throw .malformed("a part has no name in its Content-Disposition") }
      parts.append(
        Part(
          name: name, fileName: disposition["filename"], contentType: headers["content-type"],
          data: Data(body[headRange.upperBound..<end.lowerBound])))
      cursor = end.upperBound
    }
    self.parts = parts
  }

  /// The first part called `name`.
  func part(named name: String) -> Part? { parts.first { $0.name == name } }

  /// The text of every part called `name`, in order.
  func values(named name: String) -> [String] { parts.filter { $0.name == name }.map(\.text) }

  /// The `boundary` parameter of a `multipart/form-data` Content-Type.
  static func boundary(in contentType: String) -> String? {
    let media = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    guard media == "multipart/form-data", let boundary = parameters(of: contentType)["boundary"],
      !boundary.isEmpty, boundary.count <= 200
    else { return nil }
    return boundary
  }

  /// The `key=value` parameters after the first `;` of a header value, quotes removed, keys in
  /// lower case.
  static func parameters(of header: String) -> [String: String] {
    var result: [String: String] = [:]
    for item in header.split(separator: ";").dropFirst() {
      let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      guard pair.count == 2 else { continue }
      var value = pair[1]
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
        value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
      }
      result[pair[0].lowercased()] = value
    }
    return result
  }
}
