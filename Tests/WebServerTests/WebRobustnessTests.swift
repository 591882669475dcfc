import Foundation
import Synchronization
import Testing

/// The server under hostile or broken clients: malformed requests, slow and stalled clients, more
/// connections than it keeps, truncated uploads and many requests at once. After each, it still
/// answers a normal request, and no note or file is left behind by a request that failed.
@Suite("Web server robustness", .serialized)
struct WebRobustnessTests {
  /// Reads what the server sends on `socket` until it closes or `timeout` passes; returns the
  /// bytes and whether the server closed the connection.
  func drain(_ socket: Int32, timeout: TimeInterval) -> (data: Data, closed: Bool) {
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 16384)
    let deadline = Date(timeIntervalSinceNow: timeout)
    var wait = timeval(tv_sec: 0, tv_usec: 200_000)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    while Date() < deadline {
      let count = recv(socket, &buffer, buffer.count, 0)
      if count == 0 { return (received, true) }
      if count < 0 {
        if errno == EAGAIN || errno == EWOULDBLOCK { continue }
        return (received, true)
      }
      received.append(contentsOf: buffer[0..<count])
    }
    return (received, false)
  }

  func expectHealthy(_ server: TestServer, _ comment: Comment) throws {
    let status = try server.client.send("GET", "/api/status")
    #expect(status.status == 200, comment)
  }

  @Test("malformed requests are answered with 4xx or closed, and the server keeps answering")
  func malformedRequests() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let host = server.client.host
    let longHeader = String(repeating: "a", count: 200_000)
    let cases: [(String, Data)] = [
      ("garbage", Data((0..<4096).map { _ in UInt8.random(in: 0...255) })),
      ("no version", Data("GET /api/status\r\n\r\n".utf8)),
      ("bad version", Data("GET /api/status HTTP/9.9\r\nHost: \(host)\r\n\r\n".utf8)),
      ("no host", Data("GET /api/status HTTP/1.1\r\n\r\n".utf8)),
      ("unknown method", Data("BREW /api/status HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8)),
      ("huge header", Data("GET /api/status HTTP/1.1\r\nHost: \(host)\r\nX-Long: \(longHeader)\r\n\r\n".utf8)),
      ("huge path", Data("GET /\(longHeader) HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8)),
      (
        "negative length",
        Data("POST /api/imports?name=a.wav HTTP/1.1\r\nHost: \(host)\r\nContent-Length: -5\r\n\r\n".utf8)
      ),
      (
        "bad chunking",
        Data("POST /api/imports?name=a.wav HTTP/1.1\r\nHost: \(host)\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8)
      ),
      ("path traversal", Data("GET /../../../../etc/passwd HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8)),
      ("encoded traversal", Data("GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8)),
      ("nul in path", Data("GET /api/notes/\u{0}/../../../etc/passwd HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8)),
    ]
    for (name, request) in cases {
      let socket = try server.client.connect()
      try server.client.write(socket, request)
      shutdown(socket, Int32(SHUT_WR))
      let answer = drain(socket, timeout: 10)
      close(socket)
      let text = String(decoding: answer.data.prefix(200), as: UTF8.self)
      #expect(answer.closed, "\(name): the server kept the connection open")
      if name == "nul in path" {
        // libmicrohttpd ends the path at the NUL; what follows never reaches a route.
        #expect(!text.contains("root:"), "\(text)")
        continue
      }
      if let status = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) {
        #expect((400..<500).contains(status) || (name == "bad version" && status == 505), "\(name): \(text)")
      }
      #expect(!text.contains("root:"), "\(name): \(text)")
      try expectHealthy(server, "after \(name)")
    }
    #expect(server.audioFiles.isEmpty)
    #expect(server.leftoverUploads.isEmpty, "\(server.leftoverUploads)")
  }

  @Test("slow and stalled clients are closed after the idle timeout; others are served meanwhile")
  func slowClients() async throws {
    let server = try await TestServer.start(idleTimeout: 2)
    defer { Task { await server.stop() } }
    // Slowloris: each sends part of a request head, then nothing more.
    var stalled: [Int32] = []
    for _ in 0..<20 {
      let socket = try server.client.connect()
      try server.client.write(socket, Data("GET /api/status HTTP/1.1\r\nHost: \(server.client.host)\r\nX-A: ".utf8))
      stalled.append(socket)
    }
    try expectHealthy(server, "with 20 stalled clients")
    let started = Date()
    for socket in stalled {
      let answer = drain(socket, timeout: 15)
      #expect(answer.closed, "a stalled client was not closed")
      close(socket)
    }
    let waited = Date().timeIntervalSince(started)
    #expect(waited < 10, "stalled clients were closed after \(waited) s, with a 2 s timeout")

    // An upload that stops half-way leaves no note and no file.
    let socket = try server.client.connect()
    let head =
      "POST /api/imports?name=half.wav HTTP/1.1\r\nHost: \(server.client.host)\r\nContent-Type: audio/wav\r\n"
      + "Content-Length: 200000\r\n\r\n"
    try server.client.write(socket, Data(head.utf8) + Data(count: 50_000))
    let answer = drain(socket, timeout: 15)
    #expect(answer.closed, "the stalled upload was not closed")
    close(socket)
    try expectHealthy(server, "after a stalled upload")
    #expect(try server.client.send("GET", "/api/notes").json["total"] as? Int == 0)
    #expect(server.audioFiles.isEmpty)
    #expect(server.leftoverUploads.isEmpty, "\(server.leftoverUploads)")
  }

  @Test("connections past the limit are refused, and the server recovers when they close")
  func connectionLimit() async throws {
    let server = try await TestServer.start(connectionLimit: 16)
    defer { Task { await server.stop() } }
    var open: [Int32] = []
    for _ in 0..<16 {
      let socket = try server.client.connect()
      try server.client.write(socket, Data("GET /api/status HTTP/1.1\r\nHost: \(server.client.host)\r\n".utf8))
      open.append(socket)
    }
    // The server holds 16; the 17th is closed at once, without an answer.
    let extra = try server.client.connect()
    try server.client.write(extra, Data("GET /api/status HTTP/1.1\r\nHost: \(server.client.host)\r\n\r\n".utf8))
    let refused = drain(extra, timeout: 5)
    close(extra)
    #expect(refused.closed && refused.data.isEmpty, "\(String(decoding: refused.data, as: UTF8.self))")
    for socket in open { close(socket) }
    // Once they are gone it answers again (closing takes the server a moment to notice).
    var healthy = false
    for _ in 0..<50 where !healthy {
      healthy = (try? server.client.send("GET", "/api/status").status) == 200
      if !healthy { try await Task.sleep(for: .milliseconds(100)) }
    }
    #expect(healthy, "the server did not answer after the connections closed")
  }

  @Test("many requests at once are all answered")
  func concurrentRequests() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let client = server.client
    // Threads, not tasks: a blocking client on the concurrency pool would starve the server's
    // own tasks in this same process.
    let statuses = Mutex<[Int]>([])
    let done = DispatchGroup()
    for _ in 0..<32 {
      done.enter()
      Thread {
        let part = (0..<10).map { _ in (try? client.send("GET", "/api/notes?limit=5").status) ?? -1 }
        statuses.withLock { $0 += part }
        done.leave()
      }.start()
    }
    #expect(done.wait(timeout: .now() + 120) == .success, "the requests did not finish in 2 minutes")
    let all = statuses.withLock { $0 }
    #expect(all.count == 320)
    #expect(all.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: all, by: { $0 }).mapValues(\.count))")
  }
}
