import Foundation
import Synchronization

/// Whether and how the program colours its output: only on a terminal, never when `NO_COLOR` is
/// set (https://no-color.org) or `--no-color` is given.
///
/// Every escape sequence for colour or emphasis goes through here, so the rule holds everywhere.
enum TerminalStyle {
  private static let disabledByFlag = Mutex(false)

  /// Turns colour off for the rest of the run (`--no-color`).
  static func disable() { disabledByFlag.withLock { $0 = true } }

  /// Whether `NO_COLOR` or `TERM=dumb` rules colour out: read once, since every styled string asks.
  private static let environmentForbidsColor: Bool = {
    let environment = ProcessInfo.processInfo.environment
    return environment["NO_COLOR"].map { !$0.isEmpty } ?? false || environment["TERM"] == "dumb"
  }()

  /// Whether text written to `descriptor` may carry colour.
  static func allowsColor(on descriptor: Int32 = STDOUT_FILENO) -> Bool {
    !disabledByFlag.withLock { $0 } && !environmentForbidsColor && isatty(descriptor) != 0
  }

  /// The styles the program uses.
  enum Style: String {
    /// Note and item identifiers (yellow, as git shows commits).
    case identifier = "33"
    /// Matched words in search results.
    case match = "1;31"
    /// Secondary text: dates, lengths, field names, volatile words.
    case dim = "2"
    /// Headings and titles.
    case bold = "1"
    /// Something that went well (done).
    case good = "32"
    /// Something that failed.
    case bad = "31"
  }

  /// `text` in `style` when colour is allowed on `descriptor`, else `text` unchanged.
  static func apply(_ style: Style, _ text: String, on descriptor: Int32 = STDOUT_FILENO) -> String {
    allowsColor(on: descriptor) && !text.isEmpty ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
  }
}
