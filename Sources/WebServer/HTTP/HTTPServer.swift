import CMicroHTTPD
import Foundation
import Synchronization

/// An HTTP (or HTTPS) server over libmicrohttpd: the only code that touches the C library.
///
/// Each connection gets its own thread (libmicrohttpd's thread-per-connection mode), which takes
/// the body as the ``HTTPHandler`` asks, then waits while the handler's async `respond` runs.
/// Server-sent events are written from the same thread as the app queues them.
///
/// ```swift
/// let server = HTTPServer(handler: app)
/// try server.start(host: "127.0.0.1", port: 0)
/// print(server.port)
/// ```
public final class HTTPServer: @unchecked Sendable {
  /// The handler every request goes to.
  public let handler: any HTTPHandler
  private var daemon: OpaquePointer?
  private let streams = Mutex<[ObjectIdentifier: HTTPEventStream]>([:])
  private(set) var isSecure = false
  /// The port the server listens on, once started.
  public private(set) var port: UInt16 = 0

  /// How long a connection may send or take nothing before it is closed: a slow or stalled
  /// client cannot hold a connection for ever (event streams send a keep-alive every 15 s).
  public let idleTimeout: Int
  /// The most connections open at once; more are closed as they arrive, so many clients cannot
  /// exhaust the server's threads and memory.
  public let connectionLimit: Int

  /// A server that hands every request to `handler`, closing connections idle for
  /// `idleTimeout` seconds and keeping at most `connectionLimit` open.
  public init(handler: any HTTPHandler, idleTimeout: Int = 30, connectionLimit: Int = 128) {
    self.handler = handler
    self.idleTimeout = idleTimeout
    self.connectionLimit = connectionLimit
  }

  deinit { stop() }

  /// Starts listening on `host` (an IPv4 or IPv6 address) and `port` (0 picks a free one).
  ///
  /// - Parameter tls: A PEM certificate and key, to serve HTTPS.
  /// - Throws: ``HTTPServerError`` when the address is not valid or cannot be bound.
  public func start(host: String, port: UInt16, tls: (certificate: String, key: String)? = nil) throws {
    guard daemon == nil else { return }
    var flags =
      MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_AUTO.rawValue
    let context = Unmanaged.passUnretained(self).toOpaque()
    var started: OpaquePointer?
    if tls != nil, cmhd_supports_tls() == 0 {
      throw HTTPServerError.tlsUnsupported
    }
    let certificate = tls?.certificate
    let key = tls?.key
    func launch(_ address: UnsafePointer<sockaddr>) -> OpaquePointer? {
      withOptionalCString(certificate) { certificate in
        withOptionalCString(key) { key in
          cmhd_start(
            flags, address, accessHandler, context, requestCompleted, certificate, key, UInt32(idleTimeout),
            UInt32(connectionLimit))
        }
      }
    }
    var ipv4 = sockaddr_in()
    var ipv6 = sockaddr_in6()
    if inet_pton(AF_INET, host, &ipv4.sin_addr) == 1 {
      ipv4.sin_family = sa_family_t(AF_INET)
      ipv4.sin_port = port.bigEndian
      started = withUnsafePointer(to: &ipv4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, launch) }
    } else if inet_pton(AF_INET6, host, &ipv6.sin6_addr) == 1 {
      flags |= MHD_USE_IPv6.rawValue
      ipv6.sin6_family = sa_family_t(AF_INET6)
      ipv6.sin6_port = port.bigEndian
      started = withUnsafePointer(to: &ipv6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, launch) }
    } else {
      throw HTTPServerError.invalidAddress(host)
    }
    guard let started else { throw HTTPServerError.cannotListen(host: host, port: port) }
    daemon = started
    isSecure = tls != nil
    self.port = cmhd_bound_port(started)
  }

  /// Ends every event stream, then stops listening and waits for the connections to finish.
  public func stop() {
    guard let daemon else { return }
    for stream in streams.withLock({ Array($0.values) }) { stream.close() }
    MHD_stop_daemon(daemon)
    self.daemon = nil
  }

  // MARK: - Called from libmicrohttpd's threads

  fileprivate func track(_ stream: HTTPEventStream) {
    streams.withLock { $0[ObjectIdentifier(stream)] = stream }
  }

  fileprivate func untrack(_ stream: HTTPEventStream) {
    _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) }
  }

  /// Runs the handler's async `respond` and waits for it on this (libmicrohttpd's) thread.
  fileprivate func respondBlocking(_ request: HTTPRequest) -> HTTPResponse {
    let box = ResponseBox()
    let done = DispatchSemaphore(value: 0)
    let handler = self.handler
    Task {
      box.response = await handler.respond(to: request)
      done.signal()
    }
    done.wait()
    return box.response ?? handler.failure(500, "the server could not answer; try again", for: request.head)
  }
}

/// Why the server could not start.
public enum HTTPServerError: Error, LocalizedError, Equatable {
  /// The host is not an IP address.
  case invalidAddress(String)
  /// Binding failed (the port is taken, or the address is not this machine's).
  case cannotListen(host: String, port: UInt16)
  /// libmicrohttpd was built without TLS.
  case tlsUnsupported

  /// A one-line message that says what to do.
  public var errorDescription: String? {
    switch self {
    case .invalidAddress(let host):
      "'\(host)' is not an IP address; give one such as 127.0.0.1, 0.0.0.0 or ::1"
    case .cannotListen(let host, let port):
      "could not listen on \(host):\(port); the port may be in use (pick another with --port, or 0 for any free one)"
    case .tlsUnsupported:
      "this libmicrohttpd has no TLS support; install Debian's libmicrohttpd12 (built with GnuTLS)"
    }
  }
}

// MARK: - Per-connection state

/// What one request has gathered so far: its head and its body.
private final class ConnectionState {
  let head: HTTPRequest.Head
  var body = Data()
  var memoryLimit = 0
  var file: FileHandle?
  var fileURL: URL?
  var fileLimit: Int64 = 0
  var received: Int64 = 0
  var rejection: HTTPResponse?

  init(head: HTTPRequest.Head) { self.head = head }

  func removeFile() {
    try? file?.close()
    file = nil
    if let fileURL { try? FileManager.default.removeItem(at: fileURL) }
  }
}

private final class ResponseBox: @unchecked Sendable {
  var response: HTTPResponse?
}

/// Collects a connection's headers or query arguments.
private final class ValueCollector {
  var values: [String: String] = [:]
}

private func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
  guard let string else { return body(nil) }
  return string.withCString { body($0) }
}

private func collect(_ connection: OpaquePointer?, _ kind: MHD_ValueKind, lowercased: Bool) -> [String: String] {
  let collector = ValueCollector()
  let context = Unmanaged.passUnretained(collector).toOpaque()
  let iterator: MHD_KeyValueIterator = { context, _, key, value in
    guard let context, let key else { return .YES }
    let collector = Unmanaged<ValueCollector>.fromOpaque(context).takeUnretainedValue()
    let name = String(cString: key)
    let text = value.map { String(cString: $0) } ?? ""
    if collector.values[name] == nil { collector.values[name] = text }
    return .YES
  }
  MHD_get_connection_values(connection, kind, iterator, context)
  if !lowercased { return collector.values }
  return Dictionary(collector.values.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
}

private let accessHandler: MHD_AccessHandlerCallback = {
  context, connection, url, method, _, uploadData, uploadDataSize, connectionContext in
  guard let context, let connectionContext, let uploadDataSize else { return .NO }
  let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()

  guard let stored = connectionContext.pointee else {
    // The first call: only the head has arrived.
    let head = HTTPRequest.Head(
      method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
      query: collect(connection, .GET_ARGUMENT_KIND, lowercased: false),
      headers: collect(connection, .HEADER_KIND, lowercased: true), isSecure: server.isSecure)
    let state = ConnectionState(head: head)
    switch server.handler.bodyPolicy(for: head) {
    case .reject(let response):
      state.rejection = response
    case .memory(let limit):
      state.memoryLimit = limit
      if let length = head.contentLength, length > limit {
        state.rejection = tooLarge(limit: Int64(limit), head, server)
      }
    case .file(let folder, let limit):
      state.fileLimit = limit
      if let length = head.contentLength, length > limit {
        state.rejection = tooLarge(limit: limit, head, server)
      } else {
        let url = folder.appendingPathComponent(".upload-\(UUID().uuidString.lowercased())")
        if FileManager.default.createFile(atPath: url.path, contents: nil),
          let handle = try? FileHandle(forWritingTo: url)
        {
          state.file = handle
          state.fileURL = url
        } else {
          state.rejection = server.handler.failure(
            500, "could not store the upload; check free space in the library folder", for: head)
        }
      }
    }
    connectionContext.pointee = Unmanaged.passRetained(state).toOpaque()
    // A refusal known from the head alone is sent at once, without reading the body.
    if let rejection = state.rejection, head.contentLength ?? 0 > 0 {
      return queue(rejection, on: connection, server: server)
    }
    return .YES
  }

  let state = Unmanaged<ConnectionState>.fromOpaque(stored).takeUnretainedValue()
  let size = uploadDataSize.pointee
  if size > 0 {
    uploadDataSize.pointee = 0
    guard state.rejection == nil, let uploadData else { return .YES }
    state.received += Int64(size)
    let bytes = UnsafeRawBufferPointer(start: uploadData, count: size)
    if let file = state.file {
      if state.received > state.fileLimit {
        state.removeFile()
        state.rejection = tooLarge(limit: state.fileLimit, state.head, server)
      } else if (try? file.write(contentsOf: bytes)) == nil {
        state.removeFile()
        state.rejection = server.handler.failure(
          500, "could not store the upload; check free space in the library folder", for: state.head)
      }
    } else if state.received > Int64(state.memoryLimit) {
      state.body = Data()
      state.rejection = tooLarge(limit: Int64(state.memoryLimit), state.head, server)
    } else {
      state.body.append(contentsOf: bytes)
    }
    return .YES
  }

  // The last call: the whole body is in.
  if let rejection = state.rejection { return queue(rejection, on: connection, server: server) }
  if let file = state.file {
    try? file.close()
    state.file = nil
  }
  let request = HTTPRequest(head: state.head, body: state.body, bodyFile: state.fileURL)
  let response = server.respondBlocking(request)
  return queue(response, on: connection, server: server)
}

private let requestCompleted: MHD_RequestCompletedCallback = { _, _, connectionContext, _ in
  guard let connectionContext, let stored = connectionContext.pointee else { return }
  let state = Unmanaged<ConnectionState>.fromOpaque(stored).takeRetainedValue()
  state.removeFile()
  connectionContext.pointee = nil
}

private func tooLarge(limit: Int64, _ head: HTTPRequest.Head, _ server: HTTPServer) -> HTTPResponse {
  let size = limit >= 1_048_576 ? "\(limit / 1_048_576) MB" : "\(limit / 1024) KB"
  return server.handler.failure(
    413, "the upload is larger than the server's limit of \(size); send a smaller file", for: head)
}

/// Turns `response` into libmicrohttpd's and queues it.
private func queue(_ response: HTTPResponse, on connection: OpaquePointer?, server: HTTPServer) -> MHD_Result {
  let made: OpaquePointer?
  switch response.body {
  case .data(let data):
    made = data.withUnsafeBytes { bytes in
      MHD_create_response_from_buffer(
        data.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), cmhd_must_copy())
    }
  case .file(let url, let offset, let length):
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      return queue(.error(404, "the file is gone; reload the page"), on: connection, server: server)
    }
    // libmicrohttpd closes the descriptor with the response.
    made = MHD_create_response_from_fd_at_offset64(UInt64(length), descriptor, UInt64(offset))
  case .events(let stream):
    server.track(stream)
    let box = EventStreamBox(stream: stream, server: server)
    made = MHD_create_response_from_callback(
      cmhd_size_unknown(), 4096, eventReader, Unmanaged.passRetained(box).toOpaque(), eventStreamFreed)
  }
  guard let made else { return .NO }
  for header in response.headers { MHD_add_response_header(made, header.name, header.value) }
  let result = MHD_queue_response(connection, UInt32(response.status), made)
  MHD_destroy_response(made)
  return result
}

/// An event stream and the server tracking it, owned by libmicrohttpd's response.
private final class EventStreamBox {
  let stream: HTTPEventStream
  weak var server: HTTPServer?

  init(stream: HTTPEventStream, server: HTTPServer) {
    self.stream = stream
    self.server = server
  }
}

private let eventReader: MHD_ContentReaderCallback = { context, _, buffer, maximum in
  guard let context, let buffer else { return cmhd_end_with_error() }
  let box = Unmanaged<EventStreamBox>.fromOpaque(context).takeUnretainedValue()
  guard let chunk = box.stream.next(maximum: maximum, keepAlive: 15) else { return cmhd_end_of_stream() }
  chunk.withUnsafeBytes { bytes in
    buffer.update(from: bytes.bindMemory(to: CChar.self).baseAddress!, count: chunk.count)
  }
  return chunk.count
}

private let eventStreamFreed: MHD_ContentReaderFreeCallback = { context in
  guard let context else { return }
  let box = Unmanaged<EventStreamBox>.fromOpaque(context).takeRetainedValue()
  box.stream.close()
  box.server?.untrack(box.stream)
}
