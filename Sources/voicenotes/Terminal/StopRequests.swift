import Foundation
import Synchronization

/// How a person stops a recording: Enter, or Ctrl-C (SIGINT; SIGTERM counts the same).
///
/// The first request calls `stop`, which should end the recording gracefully. A signal after
/// that (a second Ctrl-C, or one after the recording ended by itself) restores the terminal and
/// calls `abort`, which should end the process at once.
///
/// While listening, a terminal on standard input reads keys one at a time without echoing them,
/// so Enter stops at once and leaves no stray line in the transcript shown;
/// ``restoreTerminal()`` puts it back (it is also called before `abort`). Standard input that is
/// not a terminal stops at a line; its end stops nothing.
final class StopRequests: Sendable {
  private struct State {
    var stopRequested = false
    var savedTerminal: termios?
    var signalSources: [any DispatchSourceSignal] = []
  }

  private let state = Mutex(State())
  private let stop: @Sendable () -> Void
  private let abort: @Sendable () -> Void

  /// Creates the requests; nothing is listened to before ``listen()``.
  init(stop: @escaping @Sendable () -> Void, abort: @escaping @Sendable () -> Void) {
    self.stop = stop
    self.abort = abort
  }

  /// Starts listening for Enter and for SIGINT and SIGTERM.
  func listen() {
    quietTerminal()
    let reader = Thread { [self] in readKeys() }
    reader.name = "voicenotes keys"
    reader.start()
    state.withLock { state in
      for number in [SIGINT, SIGTERM] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { [self] in request(bySignal: true) }
        source.resume()
        state.signalSources.append(source)
      }
    }
  }

  /// Records that the recording ended by itself: from now on a signal aborts.
  func recordingEnded() {
    state.withLock { $0.stopRequested = true }
  }

  /// Puts the terminal back as it was before ``listen()``.
  func restoreTerminal() {
    guard var saved = state.withLock({ $0.savedTerminal }) else { return }
    tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    state.withLock { $0.savedTerminal = nil }
  }

  private func request(bySignal: Bool) {
    let first = state.withLock { state in
      defer { state.stopRequested = true }
      return !state.stopRequested
    }
    if first {
      stop()
    } else if bySignal {
      restoreTerminal()
      abort()
    }
  }

  /// Whether standard input is a terminal and this process runs in its foreground (a background
  /// process that touched it would be stopped by the system).
  private var isForegroundTerminal: Bool {
    isatty(STDIN_FILENO) != 0 && tcgetpgrp(STDIN_FILENO) == getpgrp()
  }

  /// Turns off echo and line editing on a terminal, keeping Ctrl-C's signal.
  private func quietTerminal() {
    guard isForegroundTerminal else { return }
    var settings = termios()
    guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return }
    let saved = settings
    settings.c_lflag &= ~tcflag_t(ECHO | ICANON)
    withUnsafeMutableBytes(of: &settings.c_cc) { keys in
      keys[Int(VMIN)] = 1  // a read returns after one key,
      keys[Int(VTIME)] = 0  // however long that takes
    }
    guard tcsetattr(STDIN_FILENO, TCSANOW, &settings) == 0 else { return }
    state.withLock { $0.savedTerminal = saved }
  }

  /// Reads standard input until it ends; a line end asks to stop.
  private func readKeys() {
    if isatty(STDIN_FILENO) != 0 && !isForegroundTerminal { return }
    var byte: UInt8 = 0
    while true {
      let count = read(STDIN_FILENO, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }
      if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { request(bySignal: false) }
    }
  }
}
