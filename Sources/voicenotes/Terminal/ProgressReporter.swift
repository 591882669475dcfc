import Foundation
import Synchronization

/// Shows the progress of long work on standard error.
///
/// On a terminal one line is redrawn in place; in a pipe or log a line is written at each stage
/// change and each tenth of the way, so logs stay short but show that work is moving.
final class ProgressReporter: Sendable {
  private struct State {
    var label = ""
    var lastTenth = -1
    var drawn = false
    var spinner = 0
    var lastLogged: ContinuousClock.Instant?
    /// When the current label was first reported, for the estimate of the time left.
    var started: ContinuousClock.Instant?
  }

  private let state = Mutex(State())
  private let isTerminal = isatty(STDERR_FILENO) != 0
  private let quiet: Bool

  /// Creates a reporter; a `quiet` one shows nothing.
  init(quiet: Bool = false) { self.quiet = quiet }

  /// Reports that `label` is `fraction` (0...1) done, with an estimate of the time left once
  /// there is enough to go on.
  func update(_ label: String, fraction: Double) {
    guard !quiet else { return }
    let fraction = min(max(fraction, 0), 1)
    let percent = Int((fraction * 100).rounded(.down))
    state.withLock { state in
      let now = ContinuousClock.now
      if label != state.label || state.started == nil { state.started = now }
      let left = state.started.flatMap { Self.timeLeft(elapsed: now - $0, fraction: fraction) }
      let line = "\(label) \(percent)%" + (left.map { ", \($0) left" } ?? "")
      if isTerminal {
        Self.write("\r\u{1B}[K" + line)
        state.drawn = true
      } else if label != state.label || percent / 10 > state.lastTenth {
        Self.write(line + "\n")
      }
      if label != state.label { state.lastTenth = -1 }
      state.label = label
      state.lastTenth = max(state.lastTenth, percent / 10)
    }
  }

  /// Reports that `label` is under way without a known end, with `detail` ("143 tokens, 9.0 s"):
  /// a spinner on a terminal; in a log, a line when the label changes and every five seconds.
  func status(_ label: String, detail: String) {
    guard !quiet else { return }
    let frames: [Character] = ["|", "/", "-", "\\"]
    state.withLock { state in
      let now = ContinuousClock.now
      if isTerminal {
        state.spinner += 1
        Self.write("\r\u{1B}[K\(label) \(frames[state.spinner / 4 % frames.count]) \(detail)")
        state.drawn = true
      } else if label != state.label || state.lastLogged.map({ now - $0 >= .seconds(5) }) ?? true {
        Self.write("\(label): \(detail)\n")
        state.lastLogged = now
      }
      state.label = label
    }
  }

  /// Ends the progress line with a final message.
  func finish(_ message: String) {
    guard !quiet else { return }
    state.withLock { state in
      Self.write(isTerminal && state.drawn ? "\r\u{1B}[K\(message)\n" : "\(message)\n")
      state = State()
    }
  }

  /// Clears a redrawn line so an error message starts at the left edge.
  func clear() {
    state.withLock { state in
      if isTerminal && state.drawn { Self.write("\r\u{1B}[K") }
      state = State()
    }
  }

  /// "about 2 min 10 s" when `fraction` of the work took `elapsed`: nil before a twentieth of
  /// the work or five seconds, when a guess would mislead.
  static func timeLeft(elapsed: Duration, fraction: Double) -> String? {
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    guard fraction >= 0.05, fraction < 1, seconds >= 5 else { return nil }
    let left = Int((seconds * (1 - fraction) / fraction).rounded())
    return left >= 60 ? "about \(left / 60) min \(left % 60) s" : "about \(max(left, 1)) s"
  }

  static func write(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
