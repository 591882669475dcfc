import Foundation
import TestSupport

/// A TCP listener on 127.0.0.1 for client failure tests: it either never accepts (the kernel
/// completes the connection, nobody answers) or answers each connection with fixed bytes, with
/// pauses between the pieces, and then closes it.
final class LoopbackListener: @unchecked Sendable {
  let port: UInt16
  var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }
  private let socket: Int32

  /// A listener that never accepts.
  init() throws {
    socket = try Self.listen(backlog: 16)
    port = Self.port(of: socket)
  }

  /// A listener whose accept queue is full, so the kernel drops new connections' SYNs and a
  /// client's connect hangs until its connect timeout: `fillers` keeps the queue's connections.
  static func full() throws -> (LoopbackListener, fillers: [Int32]) {
    let listener = try LoopbackListener(backlog: 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = listener.port.bigEndian
    let fillers = (0..<3).map { _ in
      let filler = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK)
      _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      return filler
    }
    usleep(200_000)
    return (listener, fillers)
  }

  private init(backlog: Int32) throws {
    socket = try Self.listen(backlog: backlog)
    port = Self.port(of: socket)
  }

  /// A listener that answers the first connection with `pieces`, waiting `pause` before each
  /// one after the first, and then closes the connection.
  convenience init(answering pieces: [String], pause: Duration = .milliseconds(300)) throws {
    try self.init()
    let socket = self.socket
    let thread = Thread {
      let connection = accept(socket, nil, nil)
      guard connection >= 0 else { return }
      var buffer = [UInt8](repeating: 0, count: 65536)
      _ = read(connection, &buffer, buffer.count)
      for (index, piece) in pieces.enumerated() {
        if index > 0 {
          usleep(UInt32(pause.components.seconds * 1_000_000 + pause.components.attoseconds / 1_000_000_000_000))
        }
        _ = piece.utf8CString.withUnsafeBufferPointer {
          send(connection, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL))
        }
      }
      close(connection)
    }
    thread.start()
  }

  deinit { close(socket) }

  private static func listen(backlog: Int32) throws -> Int32 {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard socket >= 0, bound, Foundation.listen(socket, backlog) == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    return socket
  }

  private static func port(of socket: Int32) -> UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
  }
}
