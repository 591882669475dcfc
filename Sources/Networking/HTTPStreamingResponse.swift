/// A response whose body arrives as it is sent, as ``HTTPClient/stream(_:)`` returns it: the
/// status and headers at once, then the body as ``body`` chunks or as ``events``.
///
/// Read one of ``body`` and ``events``, not both (they take from the same bytes). Either stream
/// throws an ``HTTPClientError``: `.transport` when the connection drops before the end,
/// `.timedOut` when the request's timeout passes, `.cancelled` when the reading task is
/// cancelled while it waits for the next element. Dropping the response cancels the transfer.
///
/// A task cancelled between two elements (while its loop body runs) sees the stream end early
/// instead, without an error: that is how `AsyncThrowingStream` ends on cancellation, and this
/// type's streams are `AsyncThrowingStream`s. After the loop, `try Task.checkCancellation()`
/// (or treat a stream that ended without its final event, such as `[DONE]`, as cut short).
///
/// ```swift
/// let response = try await HTTPClient.shared.stream(request)
/// for try await event in response.events where event.data != "[DONE]" {
///   print(event.data)
/// }
/// ```
public struct HTTPStreamingResponse: Sendable {
  /// The status code, such as 200.
  public var status: Int
  /// The response headers by lowercased name; repeated headers are joined with ", ".
  public var headers: [String: String]
  /// The body's bytes, in chunks as they arrive from the network.
  public var body: AsyncThrowingStream<[UInt8], any Error>
  /// The body parsed as a `text/event-stream` (server-sent events), each event as soon as the
  /// blank line that ends it arrives.
  public var events: AsyncThrowingStream<ServerSentEvent, any Error>

  init(head: ResponseHead, reader: ResponseBodyReader) {
    status = head.status
    headers = head.headers
    body = AsyncThrowingStream { try await reader.nextChunk() }
    events = AsyncThrowingStream { try await reader.nextEvent() }
  }
}
