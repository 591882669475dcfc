import CCurl
import Foundation
import Synchronization

/// One HTTP transfer over libcurl, run on a thread of its own: the only code that calls libcurl.
///
/// The thread drives a multi handle holding the one easy handle, waiting in `curl_multi_poll`,
/// so ``cancel()`` wakes it at once (`curl_multi_wakeup`) rather than at curl's next progress
/// call. The response goes to a ``ResponseChannel`` as it arrives: the head when its blank line
/// ends it (1xx interim responses skipped), then each chunk curl receives, then the end.
final class CurlTransfer: Sendable {
  let request: HTTPClientRequest
  let channel: ResponseChannel
  private let cancelled = Atomic<Bool>(false)
  /// The running transfer's multi handle (its address: a pointer is not Sendable), for waking it;
  /// 0 before it starts and after it ends.
  private let multi = Mutex<UInt>(0)

  /// libcurl's process-wide setup, done once before the first transfer.
  private static let globalSetup: CURLcode = ccurl_global_init()

  init(request: HTTPClientRequest, channel: ResponseChannel) {
    self.request = request
    self.channel = channel
  }

  /// Whether ``cancel()`` was called.
  var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  /// Runs the transfer on a new thread.
  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "HTTPClient"
    thread.start()
  }

  /// Aborts the transfer (a no-op once it ended); it then ends with ``HTTPClientError/cancelled``.
  func cancel() {
    cancelled.store(true, ordering: .releasing)
    multi.withLock { address in
      if let handle = UnsafeMutableRawPointer(bitPattern: address) { _ = curl_multi_wakeup(handle) }
    }
  }

  private var url: String { request.url.absoluteString }

  private func run() {
    guard Self.globalSetup == CURLE_OK, let easy = curl_easy_init() else {
      channel.finish(.transport(url: url, reason: "libcurl could not be initialised"))
      return
    }
    let context = CallbackContext(transfer: self, easy: easy)
    let contextPointer = Unmanaged.passRetained(context).toOpaque()
    let errorSize = ccurl_error_size()
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: errorSize)
    errorBuffer.initialize(repeating: 0, count: errorSize)
    var headerList: UnsafeMutablePointer<curl_slist>?
    var mime: OpaquePointer?
    defer {
      curl_easy_cleanup(easy)
      curl_mime_free(mime)
      curl_slist_free_all(headerList)
      errorBuffer.deallocate()
      Unmanaged<CallbackContext>.fromOpaque(contextPointer).release()
    }

    _ = ccurl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
    _ = ccurl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
    _ = ccurl_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, curlReceivedBody)
    _ = ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, contextPointer)
    _ = ccurl_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, curlReceivedHeader)
    _ = ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, contextPointer)
    _ = ccurl_setopt_xferinfo(easy, curlProgress)
    _ = ccurl_setopt_pointer(easy, CURLOPT_XFERINFODATA, contextPointer)
    _ = ccurl_setopt_long(easy, CURLOPT_NOPROGRESS, 0)
    _ = ccurl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, Self.milliseconds(request.connectTimeout)))
    if request.timeout > .zero {
      _ = ccurl_setopt_long(easy, CURLOPT_TIMEOUT_MS, max(1, Self.milliseconds(request.timeout)))
    }
    guard url.withCString({ ccurl_setopt_pointer(easy, CURLOPT_URL, $0) }) == CURLE_OK else {
      channel.finish(.invalidURL(url))
      return
    }

    // The method and the body.
    let method = request.method.uppercased()
    switch request.body {
    case nil:
      switch method {
      case "GET": _ = ccurl_setopt_long(easy, CURLOPT_HTTPGET, 1)
      case "HEAD": _ = ccurl_setopt_long(easy, CURLOPT_NOBODY, 1)
      case "POST": Self.setBytes([], on: easy)
      default: break
      }
    case .bytes(let bytes, _):
      Self.setBytes(bytes, on: easy)
    case .json(let data):
      Self.setBytes(Array(data), on: easy)
    case .multipart(let parts):
      mime = curl_mime_init(easy)
      for part in parts {
        let handle = curl_mime_addpart(mime)
        _ = curl_mime_name(handle, part.name)
        if let filename = part.filename { _ = curl_mime_filename(handle, filename) }
        if let contentType = part.contentType { _ = curl_mime_type(handle, contentType) }
        if part.data.isEmpty {
          _ = curl_mime_data(handle, "", 0)
        } else {
          _ = part.data.withUnsafeBytes { bytes in
            curl_mime_data(handle, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
          }
        }
      }
      _ = ccurl_setopt_pointer(easy, CURLOPT_MIMEPOST, UnsafeRawPointer(mime))
    }
    let impliedMethod = request.body == nil ? (method == "POST" ? "POST" : "GET") : "POST"
    if method != impliedMethod && method != "HEAD" {
      _ = method.withCString { ccurl_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, $0) }
    }

    // The headers: the body's type unless given, and no `Expect: 100-continue` round trip.
    var headers = request.headers
    let given = Set(headers.keys.map { $0.lowercased() })
    if let contentType = request.body?.contentType, !given.contains("content-type") {
      headers["Content-Type"] = contentType
    }
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
      // "Name:" would remove curl's own header; "Name;" sends it empty.
      headerList = curl_slist_append(headerList, value.isEmpty ? "\(name);" : "\(name): \(value)")
    }
    if !given.contains("expect") { headerList = curl_slist_append(headerList, "Expect:") }
    _ = ccurl_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList)

    let started = ContinuousClock.now
    let result = perform(easy)
    let elapsed = ContinuousClock.now - started

    if isCancelled {
      channel.finish(.cancelled)
      return
    }
    switch result {
    case .success(CURLE_OK):
      context.deliverHead()
      channel.finish(nil)
    case .success(let code):
      channel.finish(error(for: code, easy: easy, message: String(cString: errorBuffer), elapsed: elapsed))
    case .failure(let error):
      channel.finish(error)
    }
  }

  /// Drives the easy handle to its end in a multi handle of its own; the transfer's result.
  private func perform(_ easy: UnsafeMutableRawPointer) -> Result<CURLcode, HTTPClientError> {
    guard let handle = curl_multi_init() else {
      return .failure(.transport(url: url, reason: "libcurl could not make a multi handle"))
    }
    _ = curl_multi_add_handle(handle, easy)
    let address = UInt(bitPattern: handle)
    multi.withLock { $0 = address }
    defer {
      multi.withLock { $0 = 0 }
      _ = curl_multi_remove_handle(handle, easy)
      _ = curl_multi_cleanup(handle)
    }
    while !isCancelled {
      var running: Int32 = 0
      let status = curl_multi_perform(handle, &running)
      guard status == CURLM_OK else {
        return .failure(.transport(url: url, reason: String(cString: curl_multi_strerror(status))))
      }
      var queued: Int32 = 0
      while let message = curl_multi_info_read(handle, &queued) {
        if message.pointee.msg == CURLMSG_DONE { return .success(ccurl_message_result(message)) }
      }
      if running == 0 { return .failure(.transport(url: url, reason: "the transfer ended without a result")) }
      _ = curl_multi_poll(handle, nil, 0, 1000, nil)
    }
    return .failure(.cancelled)
  }

  /// The client error for curl's result `code`.
  private func error(
    for code: CURLcode, easy: UnsafeMutableRawPointer, message: String, elapsed: Duration
  ) -> HTTPClientError {
    let reason = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
    switch code {
    case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
      var osError = 0
      _ = ccurl_getinfo_long(easy, CURLINFO_OS_ERRNO, &osError)
      if code == CURLE_COULDNT_CONNECT, osError != 0 {
        return .cannotConnect(url: url, reason: String(cString: strerror(Int32(osError))))
      }
      return .cannotConnect(url: url, reason: reason)
    case CURLE_OPERATION_TIMEDOUT:
      let total = request.timeout
      let seconds = total > .zero && elapsed >= total - .milliseconds(50) ? total : request.connectTimeout
      return .timedOut(url: url, seconds: Self.seconds(seconds))
    case CURLE_ABORTED_BY_CALLBACK:
      return .cancelled
    case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
      return .invalidURL(url)
    default:
      return .transport(url: url, reason: reason)
    }
  }

  /// Sets a request body of `bytes` (curl copies them), which makes the request a POST.
  private static func setBytes(_ bytes: [UInt8], on easy: UnsafeMutableRawPointer) {
    _ = ccurl_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
    if bytes.isEmpty {
      _ = "".withCString { ccurl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0) }
    } else {
      _ = bytes.withUnsafeBytes { ccurl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
    }
  }

  private static func milliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

/// What curl's callbacks work on, touched only on the transfer's thread: the head as it builds.
private final class CallbackContext {
  let transfer: CurlTransfer
  let easy: UnsafeMutableRawPointer
  var status = 0
  var headers: [String: String] = [:]
  var headDelivered = false

  init(transfer: CurlTransfer, easy: UnsafeMutableRawPointer) {
    self.transfer = transfer
    self.easy = easy
  }

  /// One header line without its line end: a status line, a header, or the blank line that ends
  /// the head (of an interim 1xx response, or of the response).
  func header(_ line: Substring) {
    if line.hasPrefix("HTTP/") {
      let fields = line.split(separator: " ", maxSplits: 2)
      status = fields.count > 1 ? Int(fields[1]) ?? 0 : 0
      headers = [:]
    } else if line.isEmpty {
      if !(100..<200).contains(status) { deliverHead() }
    } else if !headDelivered, let colon = line.firstIndex(of: ":") {
      let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    }
  }

  /// Hands the head to the channel, once (trailers after the body are not a head).
  func deliverHead() {
    guard !headDelivered else { return }
    headDelivered = true
    if status == 0 {
      var code = 0
      _ = ccurl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &code)
      status = code
    }
    transfer.channel.received(ResponseHead(status: status, headers: headers))
  }
}

// curl's callbacks: global functions, so they are not isolated to any actor (they run on the
// transfer's thread).

/// CURLOPT_WRITEFUNCTION: bytes of the body; returning less than given aborts the transfer.
private func curlReceivedBody(
  _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userData: UnsafeMutableRawPointer?
) -> Int {
  guard let data, let userData else { return 0 }
  let context = Unmanaged<CallbackContext>.fromOpaque(userData).takeUnretainedValue()
  if context.transfer.isCancelled { return 0 }
  context.deliverHead()
  let length = size * count
  if length > 0 { context.transfer.channel.received(Array(UnsafeRawBufferPointer(start: data, count: length))) }
  return length
}

/// CURLOPT_HEADERFUNCTION: one header line, with its line end.
private func curlReceivedHeader(
  _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userData: UnsafeMutableRawPointer?
) -> Int {
  guard let data, let userData else { return 0 }
  let context = Unmanaged<CallbackContext>.fromOpaque(userData).takeUnretainedValue()
  let length = size * count
  let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
  context.header(line.trimmingCharacters(in: .newlines)[...])
  return length
}

/// CURLOPT_XFERINFOFUNCTION: nonzero aborts the transfer (cancellation between wake-ups).
private func curlProgress(
  _ userData: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
  _ uploadTotal: curl_off_t, _ uploaded: curl_off_t
) -> Int32 {
  guard let userData else { return 0 }
  return Unmanaged<CallbackContext>.fromOpaque(userData).takeUnretainedValue().transfer.isCancelled ? 1 : 0
}
