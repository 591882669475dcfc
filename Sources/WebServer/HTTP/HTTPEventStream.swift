import Foundation

/// A server-sent-events stream: the app sends events into it, the server's connection thread
/// takes them out and writes them to the client.
///
/// When nothing is sent for a while the connection gets a comment line, which keeps proxies and
/// browsers from closing it and finds out when the client has gone.
public final class HTTPEventStream: @unchecked Sendable {
  private let condition = NSCondition()
  private var pending = Data()
  private var closed = false
  private var onClose: (@Sendable () -> Void)?

  /// A stream that calls `onClose` once, when the client goes away or the stream is closed.
  public init(onClose: @escaping @Sendable () -> Void = {}) {
    self.onClose = onClose
  }

  /// Queues one event, `event: name` with `data` on a single line.
  public func send(event name: String, data: String) {
    let line = data.replacingOccurrences(of: "\n", with: " ")
    enqueue(Data("event: \(name)\ndata: \(line)\n\n".utf8))
  }

  /// Queues one unnamed event, `data: …` on a single line (the form OpenAI's streams take).
  public func send(data: String) {
    enqueue(Data("data: \(data.replacingOccurrences(of: "\n", with: " "))\n\n".utf8))
  }

  /// Queues raw bytes of the event-stream format.
  func enqueue(_ data: Data) {
    condition.lock()
    if !closed {
      pending.append(data)
      condition.signal()
    }
    condition.unlock()
  }

  /// Whether the stream has ended.
  public var isClosed: Bool {
    condition.lock()
    defer { condition.unlock() }
    return closed
  }

  /// Ends the stream: the client sees its end after what was queued.
  public func close() {
    condition.lock()
    let wasOpen = !closed
    closed = true
    let callback = onClose
    onClose = nil
    condition.broadcast()
    condition.unlock()
    if wasOpen { callback?() }
  }

  /// The next bytes to write, at most `maximum`: waits up to `keepAlive` for some, and gives a
  /// comment line when none came. Nil when the stream has ended and everything was written.
  func next(maximum: Int, keepAlive: TimeInterval) -> Data? {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date(timeIntervalSinceNow: keepAlive)
    while pending.isEmpty && !closed {
      if !condition.wait(until: deadline) { break }
    }
    if pending.isEmpty { return closed ? nil : Data(": keep-alive\n\n".utf8) }
    let count = min(maximum, pending.count)
    let chunk = pending.prefix(count)
    pending.removeFirst(count)
    return Data(chunk)
  }
}
