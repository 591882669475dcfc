import Foundation

/// A plain HTTP/1.1 client over a socket to 127.0.0.1, so tests control every header (Host,
/// Origin, Cookie) and read answers exactly as sent.
struct HTTPTestClient {
  /// A parsed answer.
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers[name.lowercased()] }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    /// The one-line error message, when the body is `{"error": "…"}`.
    var error: String? { json["error"] as? String }
  }

  let port: UInt16
  var host: String { "127.0.0.1:\(port)" }

  /// Sends one request (with `Connection: close`) and reads the whole answer (`timeout`
  /// seconds at most without a byte).
  func send(
    _ method: String, _ path: String, headers: [String: String] = [:], body: Data = Data(),
    hostHeader: String? = nil, timeout: Int = 10
  ) throws -> Response {
    let socket = try connect(timeout: timeout)
    defer { close(socket) }
    var head = "\(method) \(path) HTTP/1.1\r\nHost: \(hostHeader ?? host)\r\nConnection: close\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if !body.isEmpty || ["POST", "PATCH", "PUT"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
    head += "\r\n"
    try write(socket, Data(head.utf8) + body)
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(socket, &buffer, buffer.count, 0)
      if count <= 0 { break }
      received.append(contentsOf: buffer[0..<count])
    }
    return try Self.parse(received)
  }

  /// JSON body helper.
  func send(_ method: String, _ path: String, json: Any, headers: [String: String] = [:], timeout: Int = 10) throws
    -> Response
  {
    var headers = headers
    headers["Content-Type"] = "application/json"
    return try send(
      method, path, headers: headers, body: try JSONSerialization.data(withJSONObject: json), timeout: timeout)
  }

  /// Opens `/api/events` and reads until `predicate` holds for the text received, or `timeout`
  /// passes; returns the text.
  func readEvents(timeout: TimeInterval, until predicate: (String) -> Bool, afterConnect: () throws -> Void) throws
    -> String
  {
    let socket = try connect()
    defer { close(socket) }
    try write(socket, Data("GET /api/events HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8))
    var text = ""
    var buffer = [UInt8](repeating: 0, count: 65536)
    let deadline = Date(timeIntervalSinceNow: timeout)
    var connected = false
    while Date() < deadline {
      let count = recv(socket, &buffer, buffer.count, 0)
      if count > 0 { text += String(decoding: buffer[0..<count], as: UTF8.self) }
      if count == 0 { break }
      if !connected, text.contains("retry:") {
        connected = true
        try afterConnect()
      }
      if connected, predicate(text) { break }
    }
    return text
  }

  /// A new connection to the server, for tests that write raw bytes.
  func connect(timeout seconds: Int = 10) throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Failure.socket }
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(socket)
      throw Failure.connect
    }
    return socket
  }

  /// Writes all of `data`, stopping quietly when the server has closed the connection.
  func write(_ socket: Int32, _ data: Data) throws {
    try data.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let sent = Glibc.send(socket, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        // The server may answer and close before reading a refused body.
        if sent <= 0 { return }
        offset += sent
      }
    }
  }

  static func parse(_ data: Data) throws -> Response {
    guard let split = data.firstRange(of: Data("\r\n\r\n".utf8)) else { throw Failure.malformed }
    let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = head[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure.malformed }
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    var body = Data(data[split.upperBound...])
    if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
    return Response(status: status, headers: headers, body: body)
  }

  static func dechunk(_ data: Data) -> Data {
    var result = Data()
    var rest = data[...]
    while let lineEnd = rest.firstRange(of: Data("\r\n".utf8)) {
      let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? 0
      if size == 0 { break }
      let start = lineEnd.upperBound
      let end = rest.index(start, offsetBy: size, limitedBy: rest.endIndex) ?? rest.endIndex
      result.append(rest[start..<end])
      rest = rest[min(rest.index(end, offsetBy: 2, limitedBy: rest.endIndex) ?? rest.endIndex, rest.endIndex)...]
    }
    return result
  }

  enum Failure: Error {
    case socket, connect, malformed
  }
}
