import Foundation
import Networking
import TestSupport
import Testing

/// What the client reports when there is no server, a silent one, or one that stops mid-body:
/// loopback sockets, no model.
@Suite("HTTP client failures", .serialized)
struct HTTPClientFailureTests {
  let client = HTTPClient()

  @Test("a port nobody listens on is .cannotConnect at once, naming the URL")
  func connectionRefused() async throws {
    let port = try ReferenceServer.freePort()
    let url = URL(string: "http://127.0.0.1:\(port)/health")!
    let started = ContinuousClock.now
    let error = await #expect(throws: HTTPClientError.self) {
      _ = try await client.send(HTTPClientRequest(url: url))
    }
    #expect(ContinuousClock.now - started < .seconds(1))
    guard case .cannotConnect(let failedURL, let reason) = error else {
      Issue.record("expected .cannotConnect, got \(String(describing: error))")
      return
    }
    #expect(failedURL == url.absoluteString)
    #expect(reason == "Connection refused")
    #expect(
      error?.errorDescription
        == "could not connect to \(url.absoluteString): Connection refused; is the server running?")
  }

  @Test("a server that accepts and never answers is .timedOut after the request's timeout")
  func silentServerTimesOut() async throws {
    let listener = try LoopbackListener()
    let started = ContinuousClock.now
    let error = await #expect(throws: HTTPClientError.self) {
      _ = try await client.send(HTTPClientRequest(url: listener.url, timeout: .milliseconds(1500)))
    }
    let elapsed = ContinuousClock.now - started
    #expect(error == .timedOut(url: listener.url.absoluteString, seconds: 1.5))
    #expect(elapsed >= .milliseconds(1400) && elapsed < .milliseconds(2500), "took \(elapsed)")
  }

  @Test("a connection the server never completes is .timedOut after the connect timeout")
  func connectTimeout() async throws {
    let (listener, fillers) = try LoopbackListener.full()
    defer {
      for filler in fillers { close(filler) }
    }
    let started = ContinuousClock.now
    let error = await #expect(throws: HTTPClientError.self) {
      _ = try await client.send(
        HTTPClientRequest(url: listener.url, timeout: .seconds(20), connectTimeout: .milliseconds(800)))
    }
    let elapsed = ContinuousClock.now - started
    #expect(error == .timedOut(url: listener.url.absoluteString, seconds: 0.8))
    #expect(elapsed >= .milliseconds(700) && elapsed < .milliseconds(1800), "took \(elapsed)")
  }

  @Test("the timeout also bounds a stream's head")
  func silentServerTimesOutStreaming() async throws {
    let listener = try LoopbackListener()
    let error = await #expect(throws: HTTPClientError.self) {
      _ = try await client.stream(HTTPClientRequest(url: listener.url, timeout: .seconds(1)))
    }
    #expect(error == .timedOut(url: listener.url.absoluteString, seconds: 1))
  }

  @Test("cancelling the task waiting for a silent server throws .cancelled at once")
  func cancelWhileWaiting() async throws {
    let listener = try LoopbackListener()
    let client = client
    let task = Task { try await client.send(HTTPClientRequest(url: listener.url, timeout: .seconds(30))) }
    try await Task.sleep(for: .milliseconds(300))
    let cancelled = ContinuousClock.now
    task.cancel()
    let result = await task.result
    #expect(ContinuousClock.now - cancelled < .milliseconds(500))
    #expect(throws: HTTPClientError.cancelled) { try result.get() }
  }

  @Test("a body cut short by a closed connection ends the stream with .transport")
  func droppedMidBody() async throws {
    let listener = try LoopbackListener(answering: [
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 1000\r\n\r\n",
      "data: one\n\n",
    ])
    let response = try await client.stream(HTTPClientRequest(url: listener.url, timeout: .seconds(10)))
    #expect(response.status == 200)
    #expect(response.headers["content-type"] == "text/event-stream")
    var events: [ServerSentEvent] = []
    do {
      for try await event in response.events { events.append(event) }
      Issue.record("the stream ended without an error")
    } catch let error as HTTPClientError {
      guard case .transport(let url, _) = error else {
        Issue.record("expected .transport, got \(error)")
        return
      }
      #expect(url == listener.url.absoluteString)
    }
    #expect(events == [ServerSentEvent(data: "one")])
  }

  @Test("events arrive one by one as the server sends them, split across writes")
  func eventsArriveIncrementally() async throws {
    let listener = try LoopbackListener(
      answering: [
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n",
        "f\r\ndata: first\n\nda\r\n", "c\r\nta: second\n\n\r\n", "0\r\n\r\n",
      ], pause: .milliseconds(400))
    let started = ContinuousClock.now
    let response = try await client.stream(HTTPClientRequest(url: listener.url, timeout: .seconds(10)))
    var arrivals: [(ServerSentEvent, Duration)] = []
    for try await event in response.events { arrivals.append((event, ContinuousClock.now - started)) }
    #expect(arrivals.map(\.0) == [ServerSentEvent(data: "first"), ServerSentEvent(data: "second")])
    // "first" came with the second write (about 0.4 s), "second" with the third (about 0.8 s).
    #expect(arrivals.count == 2 && arrivals[0].1 < .milliseconds(700) && arrivals[1].1 >= .milliseconds(700))
  }

  @Test("body chunks arrive as the server writes them, before the response ends")
  func bodyChunksArriveIncrementally() async throws {
    let listener = try LoopbackListener(
      answering: ["HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello", "world"], pause: .milliseconds(500))
    let started = ContinuousClock.now
    let response = try await client.stream(HTTPClientRequest(url: listener.url, timeout: .seconds(10)))
    #expect(response.headers["content-length"] == "10")
    var chunks: [(String, Duration)] = []
    for try await chunk in response.body {
      chunks.append((String(decoding: chunk, as: UTF8.self), ContinuousClock.now - started))
    }
    #expect(chunks.map(\.0) == ["hello", "world"])
    #expect(chunks.count == 2 && chunks[0].1 < .milliseconds(400) && chunks[1].1 >= .milliseconds(450))
  }

  @Test("an HTTP error status is a response, with its body")
  func errorStatusIsAResponse() async throws {
    let listener = try LoopbackListener(answering: [
      "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 7\r\nX-Thing: a\r\nX-Thing: b\r\n\r\nloading"
    ])
    let response = try await client.send(HTTPClientRequest(url: listener.url))
    #expect(response.status == 503)
    #expect(response.text == "loading")
    #expect(response.headers["x-thing"] == "a, b")
  }

  @Test("a URL that is not http(s) is .invalidURL before any connection")
  func invalidURL() async throws {
    let url = URL(string: "ftp://127.0.0.1/file")!
    await #expect(throws: HTTPClientError.invalidURL("ftp://127.0.0.1/file")) {
      _ = try await client.send(HTTPClientRequest(url: url))
    }
  }
}
