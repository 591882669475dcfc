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
    Self.write("\u{1B}[?25l")
  }

  /// Puts the terminal back as it was and shows the cursor again.
  static func restore() {
    guard var settings = original.withLock({ $0 }) else { return }
    tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    write("\u{1B}[?25h\n")
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
  /// it, and the error in red.
  func draw(_ model: TranscriptionModel, source: String) {
    var screen = "\u{1B}[H\u{1B}[2J\u{1B}[1mSpeech to Text\u{1B}[22m  (\(source))\n"
    screen +=
      model.isRecording
      ? "\u{1B}[31m●\u{1B}[39m Recording...   space: stop   c: clear   q: quit\n\n"
      : "space: start recording   c: clear   q: quit\n\n"
    if model.finalizedText.isEmpty && model.currentText.isEmpty {
      screen += "\u{1B}[2m" + (model.isRecording ? "Listening..." : "Press space to start recording...") + "\u{1B}[22m"
    } else {
      screen += model.finalizedText + "\u{1B}[2m" + model.currentText + "\u{1B}[22m"
    }
    if let error = model.errorMessage { screen += "\n\n\u{1B}[31m\(error)\u{1B}[39m" }
    Self.write(screen)
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
