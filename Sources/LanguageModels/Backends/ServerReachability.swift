import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Whether a server accepts TCP connections, answered synchronously (``SystemLanguageModel``'s
/// `availability` is a synchronous property) and cached for a few seconds.
///
/// Only the connection is tried, with a short timeout, on the calling thread: no HTTP request,
/// so no async task is awaited from synchronous code.
final class ServerReachability: Sendable {
  /// The result of one probe: nil when reachable, else why not.
  private let cache = Mutex<(checked: ContinuousClock.Instant, failure: String?)?>(nil)
  let url: URL
  let timeout: Duration
  let lifetime: Duration

  /// A probe of `url`'s host and port, waiting at most `timeout`, remembered for `lifetime`.
  init(url: URL, timeout: Duration = .milliseconds(1500), lifetime: Duration = .seconds(3)) {
    self.url = url
    self.timeout = timeout
    self.lifetime = lifetime
  }

  /// Why the server cannot be reached now, or nil when it accepts connections.
  var failure: String? {
    let now = ContinuousClock.now
    if let cached = cache.withLock({ $0 }), now - cached.checked < lifetime { return cached.failure }
    let failure = Self.probe(url, timeout: timeout)
    cache.withLock { $0 = (now, failure) }
    return failure
  }

  /// Forgets the last probe (after a request failed or succeeded, which says more).
  func record(failure: String?) { cache.withLock { $0 = (ContinuousClock.now, failure) } }

  private static func probe(_ url: URL, timeout: Duration) -> String? {
    guard let host = url.host, !host.isEmpty else { return "the URL has no host" }
    let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else { return "cannot resolve \(host)" }
    defer { freeaddrinfo(list) }
    var lastError = "connection refused"
    var entry: UnsafeMutablePointer<addrinfo>? = first
    let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    while let address = entry {
      entry = address.pointee.ai_next
      let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
      guard socket >= 0 else { continue }
      defer { close(socket) }
      _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
      if connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return nil }
      guard errno == EINPROGRESS else {
        lastError = String(cString: strerror(errno))
        continue
      }
      var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
      guard poll(&descriptor, 1, milliseconds) == 1 else {
        lastError = "no answer within \(milliseconds) ms"
        continue
      }
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
      if error == 0 { return nil }
      lastError = String(cString: strerror(error))
    }
    return lastError.lowercased()
  }
}
