import Foundation
import Networking
import TestSupport
import Testing

/// The client against a real llama-server (SmolLM2-135M): plain requests, a streamed chat
/// completion read as server-sent events, cancellation and a server killed mid-stream.
@Suite("HTTP client against llama-server", .serialized)
struct LlamaServerTests {
  let client = HTTPClient()
  static let model = Fixtures.models.appendingPathComponent("smollm-135m.gguf")

  func startServer() async throws -> ReferenceServer {
    try await ReferenceServer.start(.llama, model: Self.model, arguments: ["-c", "2048", "--parallel", "1"])
  }

  /// A streamed chat completion that keeps generating `tokens` tokens (end of text ignored).
  /// Checks that `server` (one slot) answers a short request: the transfer before it has ended.
  func expectNextRequestServed(by server: ReferenceServer) async throws {
    let next = try await client.send(
      HTTPClientRequest(
        method: "POST", url: server.baseURL.appendingPathComponent("v1/chat/completions"),
        body: .json(Data(#"{"messages":[{"role":"user","content":"Hi"}],"max_tokens":4}"#.utf8)),
        timeout: .seconds(30)))
    #expect(next.status == 200)
  }

  func chatRequest(_ server: ReferenceServer, tokens: Int) -> HTTPClientRequest {
    let body: [String: Any] = [
      "messages": [["role": "user", "content": "Tell me a long story about a lighthouse."]],
      "stream": true, "max_tokens": tokens, "ignore_eos": true, "temperature": 0,
    ]
    return HTTPClientRequest(
      method: "POST", url: server.baseURL.appendingPathComponent("v1/chat/completions"),
      body: .json(try! JSONSerialization.data(withJSONObject: body)), timeout: .seconds(120))
  }

  @Test("GET /health and /v1/models")
  func healthAndModels() async throws {
    let server = try await startServer()
    defer { server.stop() }
    let health = try await client.send(HTTPClientRequest(url: server.baseURL.appendingPathComponent("health")))
    #expect(health.status == 200)
    #expect(health.text.contains("\"ok\""))
    let models = try await client.send(HTTPClientRequest(url: server.baseURL.appendingPathComponent("v1/models")))
    #expect(models.status == 200)
    #expect(models.headers["content-type"]?.hasPrefix("application/json") == true)
    let json = try JSONSerialization.jsonObject(with: Data(models.body)) as? [String: Any]
    let ids = (json?["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
    #expect(ids.contains { $0.contains("smollm-135m") }, "model ids: \(ids)")
  }

  @Test("POST /tokenize with a JSON body")
  func tokenize() async throws {
    let server = try await startServer()
    defer { server.stop() }
    let request = HTTPClientRequest(
      method: "POST", url: server.baseURL.appendingPathComponent("tokenize"),
      body: .json(Data(#"{"content": "Hello world, hello world"}"#.utf8)))
    let response = try await client.send(request)
    #expect(response.status == 200)
    let json = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
    let tokens = json?["tokens"] as? [Int] ?? []
    #expect(tokens.count >= 4 && tokens.count <= 8, "tokens: \(tokens)")
  }

  @Test("a streamed chat completion arrives as events, the first long before the last")
  func streamedChat() async throws {
    let server = try await startServer()
    defer { server.stop() }
    let started = ContinuousClock.now
    let response = try await client.stream(chatRequest(server, tokens: 200))
    #expect(response.status == 200)
    #expect(response.headers["content-type"]?.hasPrefix("text/event-stream") == true)
    var datas: [String] = []
    var firstAt: Duration?
    for try await event in response.events {
      if firstAt == nil { firstAt = ContinuousClock.now - started }
      datas.append(event.data)
    }
    let total = ContinuousClock.now - started
    #expect(datas.last == "[DONE]")
    #expect(datas.count > 50, "\(datas.count) events")
    var text = ""
    for data in datas.dropLast() {
      let json = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
      let delta = (json?["choices"] as? [[String: Any]])?.first?["delta"] as? [String: Any]
      text += delta?["content"] as? String ?? ""
    }
    #expect(text.count > 100, "text: \(text)")
    // Incremental: the first event came while most of the 200 tokens were still to be generated.
    let first = try #require(firstAt)
    #expect(first < total / 2, "first event at \(first) of \(total)")
  }

  @Test("cancelling the task reading a stream throws .cancelled promptly and frees the server")
  func cancelMidStream() async throws {
    let server = try await startServer()
    defer { server.stop() }
    let (started, signal) = AsyncStream.makeStream(of: Void.self)
    let client = client
    let request = chatRequest(server, tokens: 5000)
    let task = Task { () async throws -> Int in
      let response = try await client.stream(request)
      var count = 0
      for try await _ in response.events {
        count += 1
        if count == 3 { signal.yield() }
      }
      return count
    }
    for await _ in started { break }
    // Cancel while the reader waits for the next token (a stream cancelled between two elements
    // ends early instead of throwing: AsyncThrowingStream's rule).
    try await Task.sleep(for: .milliseconds(20))
    let cancelled = ContinuousClock.now
    task.cancel()
    let result = await task.result
    #expect(ContinuousClock.now - cancelled < .milliseconds(500))
    #expect(throws: HTTPClientError.cancelled) { try result.get() }
    // The server saw the connection close and serves the next request (one slot only).
    try await expectNextRequestServed(by: server)
  }

  @Test("a task cancelled between two events sees the stream end early, and the transfer stops")
  func cancelBetweenEvents() async throws {
    let server = try await startServer()
    defer { server.stop() }
    let client = client
    let request = chatRequest(server, tokens: 5000)
    let task = Task { () async throws -> [String] in
      let response = try await client.stream(request)
      var datas: [String] = []
      for try await event in response.events {
        datas.append(event.data)
        if datas.count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
      }
      return datas
    }
    let datas = try await task.value
    #expect(datas.count == 3 && !datas.contains("[DONE]"), "\(datas.count) events")
    try await expectNextRequestServed(by: server)
  }

  @Test("killing the server mid-stream ends the stream with .transport")
  func serverKilledMidStream() async throws {
    let server = try await startServer()
    defer { server.stop() }
    let response = try await client.stream(chatRequest(server, tokens: 5000))
    var count = 0
    do {
      for try await _ in response.events {
        count += 1
        if count == 3 { server.kill() }
      }
      Issue.record("the stream ended without an error after \(count) events")
    } catch let error as HTTPClientError {
      guard case .transport(let url, let reason) = error else {
        Issue.record("expected .transport, got \(error)")
        return
      }
      #expect(url.hasSuffix("/v1/chat/completions"))
      #expect(!reason.isEmpty)
    }
    #expect(count >= 3)
  }
}
