import Foundation

/// An HTTP/1.1 client over libcurl, for talking to OpenAI-compatible servers: whole responses,
/// streamed responses and server-sent events, with real connect and total timeouts.
///
/// Each request runs on its own thread (never on the Swift concurrency pool), so a slow server
/// holds no async task's thread. Cancelling the task that awaits a request (or reads its stream)
/// aborts the transfer at once and throws ``HTTPClientError/cancelled``. An HTTP error status is
/// a response, not an error.
///
/// ```swift
/// let response = try await HTTPClient.shared.send(
///   HTTPClientRequest(url: URL(string: "http://127.0.0.1:8080/health")!))
/// print(response.status, response.text)
/// ```
public final class HTTPClient: Sendable {
  /// A client to share: it holds no state between requests.
  public static let shared = HTTPClient()

  /// A client.
  public init() {}

  /// Sends `request` and returns the whole response once its last byte arrives.
  ///
  /// - Throws: ``HTTPClientError`` when there is no whole response: no connection, a timeout,
  ///   a dropped connection, cancellation, or a URL that is not http(s).
  public func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
    let (head, channel, transfer) = try await open(request)
    var body: [UInt8] = []
    while let chunk = try await channel.next(cancelling: transfer).get() {
      body += chunk
    }
    return HTTPClientResponse(status: head.status, headers: head.headers, body: body)
  }

  /// Sends `request` and returns as soon as the response's status and headers arrive; the body
  /// then arrives through the response's streams.
  ///
  /// - Throws: ``HTTPClientError`` when no response head arrives: no connection, a timeout,
  ///   cancellation, or a URL that is not http(s).
  public func stream(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPStreamingResponse {
    let (head, channel, transfer) = try await open(request)
    return HTTPStreamingResponse(head: head, reader: ResponseBodyReader(channel: channel, transfer: transfer))
  }

  /// Starts `request`'s transfer and waits for the response head.
  private func open(
    _ request: HTTPClientRequest
  ) async throws(HTTPClientError) -> (ResponseHead, ResponseChannel, CurlTransfer) {
    let scheme = request.url.scheme?.lowercased()
    guard scheme == "http" || scheme == "https", let host = request.url.host, !host.isEmpty else {
      throw .invalidURL(request.url.absoluteString)
    }
    let channel = ResponseChannel()
    let transfer = CurlTransfer(request: request, channel: channel)
    let head = await withTaskCancellationHandler {
      await channel.head(starting: transfer)
    } onCancel: {
      transfer.cancel()
    }
    return (try head.get(), channel, transfer)
  }
}
