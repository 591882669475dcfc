import Foundation
import Synchronization

/// The terminal as the app's screen: keys arrive one at a time (raw mode), the model is drawn
/// with ANSI styles, and the terminal is put back on exit and on Ctrl-C, `kill` or a closed
/// window.
///
/// When standard input or output is not a terminal there are no keys and no drawing: final text
/// is printed line by line instead, and errors go to standard error.
final class TerminalScreen: Sendable {
  /// Whether both standard input and output are terminals.
  let isInteractive = isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0
  /// The terminal's settings before raw mode, for putting them back.
  private static let original = Mutex<termios?>(nil)
  private let signalSources = Mutex<[any DispatchSourceSignal]>([])

  /// Reads keys without waiting for Enter and without echoing them, hides the cursor, and makes
  /// sure the terminal is restored however the program ends.
  func enterRawMode() {
    var settings = termios()
    guard isInteractive, tcgetattr(STDIN_FILENO, &settings) == 0 else { return }
    Self.original.withLock { $0 = settings }
    atexit { TerminalScreen.restore() }
    // Ctrl-C and other signals end the program through exit(), which runs the atexit handler.
    signalSources.withLock { sources in
      for number in [SIGINT, SIGTERM, SIGHUP] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { exit(128 + number) }
        source.resume()
        sources.append(source)
      }
    }
    settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
    tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    // The alternate screen, as full-screen programs use: redrawing it leaves no copies in the
    // scrollback, and the shell's screen comes back on exit.
    Self.write("\u{1B}[?1049h\u{1B}[?25l")
  }

  /// Puts the terminal back as it was (its own screen, the cursor shown); once only.
  static func restore() {
    guard
      var settings = original.withLock({ state in
        defer { state = nil }
        return state
      })
    else { return }
    tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    write("\u{1B}[?25h\u{1B}[?1049l")
  }

  /// The keys pressed, until standard input ends.
  func keys() -> AsyncStream<UInt8> {
    let (keys, continuation) = AsyncStream.makeStream(of: UInt8.self)
    let reader = Thread {
      var key: UInt8 = 0
      while read(STDIN_FILENO, &key, 1) == 1 { continuation.yield(key) }
      continuation.finish()
    }
    reader.start()
    return keys
  }

  /// Draws the whole screen: the state, the final text plain with the volatile text dimmed after
  /// it, and the error in red. Text is wrapped at word boundaries to the terminal's width, and
  /// only its last lines are drawn when it is taller than the window.
  func draw(_ model: TranscriptionModel, source: String) {
    let size = Self.windowSize()
    var screen = "\u{1B}[H\u{1B}[J" + Self.style("1", "Speech to Text") + "  (\(source))\n"
    screen +=
      model.isRecording
      ? Self.style("31", "●") + " Recording...   space: stop   c: clear   q: quit\n\n"
      : "space: start recording   c: clear   q: quit\n\n"
    var lines: [String]
    if model.finalizedText.isEmpty && model.currentText.isEmpty {
      lines = [Self.style("2", model.isRecording ? "Listening..." : "Press space to start recording...")]
    } else {
      lines = Self.wrap(final: model.finalizedText, volatile: model.currentText, width: max(size.columns - 1, 10))
    }
    let errorLines = model.errorMessage.map { ["", Self.style("31", $0)] } ?? []
    let room = max(size.rows - 3 - errorLines.count, 1)
    if lines.count > room { lines = Array(lines.suffix(room)) }
    screen += (lines + errorLines).joined(separator: "\n")
    Self.write(screen)
  }

  /// The final and volatile text in lines of at most `width` characters, broken between words
  /// (a word longer than a line is split), the volatile words dimmed.
  static func wrap(final: String, volatile: String, width: Int) -> [String] {
    let words =
      final.split(whereSeparator: \.isWhitespace).map { (String($0), false) }
      + volatile.split(whereSeparator: \.isWhitespace).map { (String($0), true) }
    var rows: [[(String, Bool)]] = [[]]
    var used = 0
    for (word, dim) in words {
      var word = Substring(word)
      while word.count > width {
        if used > 0 { rows.append([]) }
        rows[rows.count - 1].append((String(word.prefix(width)), dim))
        rows.append([])
        used = 0
        word = word.dropFirst(width)
      }
      if used > 0 && used + 1 + word.count > width {
        rows.append([])
        used = 0
      }
      rows[rows.count - 1].append((String(word), dim))
      used += (used > 0 ? 1 : 0) + word.count
    }
    return rows.map { row in
      row.enumerated().map { index, word in (index > 0 ? " " : "") + (word.1 ? style("2", word.0) : word.0) }
        .joined()
    }
  }

  /// `text` in the SGR style `code` (bold 1, dim 2, red 31), unless NO_COLOR is set.
  static func style(_ code: String, _ text: String) -> String {
    let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    return noColor ? text : "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }

  /// The terminal's rows and columns (24 by 80 when unknown).
  static func windowSize() -> (rows: Int, columns: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (24, 80) }
    return (Int(size.ws_row), Int(size.ws_col))
  }

  /// Prints a line of final text (when not interactive).
  func printLine(_ text: String) {
    Self.write(text + "\n")
  }

  /// Prints an error on standard error (when not interactive).
  func printError(_ message: String) {
    FileHandle.standardError.write(Data("LiveTranscription: error: \(message)\n".utf8))
  }

  private static func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
