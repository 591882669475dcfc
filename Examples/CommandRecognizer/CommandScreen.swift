import Foundation

/// The terminal side: prints what was heard and, for a command, changes the background colour
/// (the whole window where the terminal supports it, the line otherwise). Without a terminal it
/// prints plain lines.
struct CommandScreen {
  private let isTerminal = isatty(STDOUT_FILENO) == 1

  /// Writes a line at once (unbuffered, so a pipe sees each command as it is recognized).
  private func emit(_ line: String, terminator: String = "\n") {
    FileHandle.standardOutput.write(Data((line + terminator).utf8))
  }

  /// Prints a status line.
  func say(_ message: String) { emit(message) }

  /// Lists what a person can say, and how to stop.
  func showCommands(_ commands: [(phrase: String, effect: String)]) {
    emit("Say: " + commands.map { "\"\($0.phrase)\"" }.joined(separator: ", ") + ".  Ctrl-C stops.")
  }

  /// Shows a recognized utterance and applies its command, if it is one.
  func show(_ text: String, command: ColorCommand?) {
    guard let command else {
      emit("\"\(text)\": not a command")
      return
    }
    guard isTerminal else {
      emit("\"\(text)\": background \(command.name)")
      return
    }
    let (red, green, blue) = command.rgb
    let hex = String(format: "#%02x%02x%02x", red, green, blue)
    // OSC 11 sets the window's background; the SGR colour marks the line for terminals without it.
    emit("\u{1B}]11;\(hex)\u{07}\u{1B}[48;2;\(red);\(green);\(blue)m\"\(text)\": background \(command.name)\u{1B}[0m")
  }

  /// Puts the terminal's own background back.
  func finish() {
    if isTerminal { emit("\u{1B}]111\u{07}", terminator: "") }
  }

  /// Prints an error in red on standard error.
  func fail(_ message: String) {
    finish()
    let line = isatty(STDERR_FILENO) == 1 ? "\u{1B}[31m\(message)\u{1B}[0m" : message
    FileHandle.standardError.write(Data("CommandRecognizer: \(line)\n".utf8))
  }
}
