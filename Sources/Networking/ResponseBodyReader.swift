import Synchronization

/// Reads a streamed response's body for ``HTTPStreamingResponse``: as chunks, or parsed as
/// server-sent events. Cancels the transfer when the response is dropped unread.
final class ResponseBodyReader: Sendable {
  private let channel: ResponseChannel
  private let transfer: CurlTransfer
  private let parser = Mutex(ServerSentEventParser())

  init(channel: ResponseChannel, transfer: CurlTransfer) {
    self.channel = channel
    self.transfer = transfer
  }

  deinit { transfer.cancel() }

  /// The next chunk of the body, nil at its end.
  func nextChunk() async throws(HTTPClientError) -> [UInt8]? {
    try await channel.next(cancelling: transfer).get()
  }

  /// The next complete event of the body, nil at its end.
  func nextEvent() async throws(HTTPClientError) -> ServerSentEvent? {
    while true {
      if let event = parser.withLock({ $0.next() }) { return event }
      guard let chunk = try await nextChunk() else { return nil }
      parser.withLock { $0.feed(chunk) }
    }
  }
}
