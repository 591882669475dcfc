import Foundation
import VoiceNotes

@testable import WebServer

/// The web app's request handling, in process (no sockets): the security rules and body limits
/// (``WebApp/bodyPolicy(for:)``), then the app's answer (``WebApp/respond(to:)``) over a library of
/// synthetic notes, and the request parsing helpers the routes use (JSON bodies, Range headers, ids,
/// upload names, search scopes).
///
/// The input is an HTTP/1.1-like text: `METHOD /path?a=1&b=2`, header lines `Name: value`, a blank
/// line, the body. Query strings are split and percent-decoded here as libmicrohttpd does for the
/// server. A request with `X-Fuzz-Remote` goes to an app bound to every interface with a token,
/// others to a loopback app. Requests that would change the library beyond a title or a tick
/// (imports, recordings, deletes, installs, restores, retries) and the event stream stop after the
/// body policy.
enum HTTPFuzz {
  private static let apps = makeApps()

  private static func makeApps() -> (loopback: WebApp, remote: WebApp) {
    let folder = FuzzFolder.url.appendingPathComponent("web-library", isDirectory: true)
    let library = AsyncRunner.wait { () -> Library? in
      try? await Library.open(
        LibraryConfiguration(
          folder: folder, speechModel: .default, liveModel: .tinyEnglish, languageModel: .tiny))
    }
    let added = AsyncRunner.wait { () -> Bool in
      guard let library else { return false }
      return (try? await library.store.addSampleNotes(count: 20, wordsPerNote: 40)) != nil
    }
    guard let library, added else { fatalError("cannot make the web library") }
    let settings = WebApp.Settings(maximumUpload: 1 << 20, version: "fuzz")
    return (
      WebApp(library: library, security: WebSecurity(boundHost: "127.0.0.1", token: nil), settings: settings),
      WebApp(library: library, security: WebSecurity(boundHost: "0.0.0.0", token: "fuzz-token"), settings: settings)
    )
  }

  static func run(_ data: Data) {
    let (head, body) = parse(data)
    helpers(head, body: body)
    let app = head.header("x-fuzz-remote") == nil ? apps.loopback : apps.remote
    switch app.bodyPolicy(for: head) {
    case .reject(let response):
      fuzzCheck((400..<600).contains(response.status), "a refusal with status \(response.status)")
      return
    case .memory(let limit):
      guard body.count <= limit else { return }
    case .file:
      return
    }
    let changesLibrary = ["POST", "DELETE", "PUT"].contains(head.method) || head.path == "/api/events"
    guard !changesLibrary else { return }
    let request = HTTPRequest(head: head, body: body)
    let response = AsyncRunner.wait { await app.respond(to: request) }
    fuzzCheck((200..<600).contains(response.status), "status \(response.status) for \(head.method) \(head.path)")
    fuzzCheck(response.header("X-Content-Type-Options") == "nosniff", "an answer without the security headers")
  }

  /// The route helpers, on what the request carries.
  private static func helpers(_ head: HTTPRequest.Head, body: Data) {
    struct Title: Decodable { var title: String }
    struct Done: Decodable { var done: Bool }
    let request = HTTPRequest(head: head, body: body)
    _ = try? APIRoutes.decode(request, example: "{}") as Title
    _ = try? APIRoutes.decode(request, example: "{}") as Done
    for part in head.path.split(separator: "/") {
      if let id = try? APIRoutes.checkedID(String(part)) {
        fuzzCheck((4...36).contains(id.count), "the id '\(id)' passed the check")
      }
    }
    if let range = head.header("range") {
      let size = Int64(body.count)
      if let (start, end) = APIRoutes.byteRange(range, size: size) {
        fuzzCheck(0 <= start && start <= end && end < size, "range \(start)-\(end) of \(size) bytes from '\(range)'")
      }
    }
    if let name = head.query["name"] {
      let cleaned = APIRoutes.cleanFileName(name)
      fuzzCheck(!cleaned.contains("/") && cleaned != ".." && !cleaned.isEmpty, "'\(name)' cleaned to '\(cleaned)'")
    }
    if let scope = head.query["scope"] { _ = APIRoutes.scope(named: scope) }
    if let type = head.contentType { _ = APIRoutes.isAudioContentType(type) }
    _ = head.contentLength
  }

  /// The request head and body the input describes.
  private static func parse(_ data: Data) -> (HTTPRequest.Head, Data) {
    let bytes = [UInt8](data)
    var lines: [String] = []
    var start = 0
    var bodyStart = bytes.count
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\n") {
        var end = index
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = String(decoding: bytes[start..<end], as: UTF8.self)
        start = index + 1
        if line.isEmpty && !lines.isEmpty {
          bodyStart = start
          break
        }
        lines.append(line)
      }
      index += 1
    }
    if bodyStart == bytes.count, start < bytes.count {
      lines.append(String(decoding: bytes[start...], as: UTF8.self))
    }
    let requestLine = (lines.first ?? "").split(separator: " ", maxSplits: 2)
    let method = requestLine.first.map(String.init) ?? "GET"
    let target = requestLine.count > 1 ? String(requestLine[1]) : "/"
    let (path, query) = split(target)
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    if headers.keys.allSatisfy({ $0.lowercased() != "host" }) { headers["Host"] = "127.0.0.1:8765" }
    let head = HTTPRequest.Head(method: method, path: path, query: query, headers: headers)
    return (head, bodyStart < bytes.count ? Data(bytes[bodyStart...]) : Data())
  }

  /// The path (percent-decoded) and the query arguments of a request target.
  private static func split(_ target: String) -> (String, [String: String]) {
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let path = decoded(parts[0])
    var query: [String: String] = [:]
    if parts.count > 1 {
      for pair in parts[1].split(separator: "&") {
        let fields = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let key = decoded(fields[0])
        if query[key] == nil { query[key] = fields.count > 1 ? decoded(fields[1]) : "" }
      }
    }
    return (path, query)
  }

  private static func decoded(_ text: Substring) -> String {
    let plus = text.replacingOccurrences(of: "+", with: " ")
    return plus.removingPercentEncoding ?? plus
  }
}
