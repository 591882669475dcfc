import AudioIO
import Foundation
import SpeechRecognition
import Synchronization

/// Shows a live transcript as it firms up: final text plain, the volatile (tentative) text dimmed
/// after it, each volatile result replacing the one shown for the same audio.
///
/// On a terminal the text is word-wrapped to the terminal's width. Rows of final text that can no
/// longer change are written once and left alone; the rest (the last final words and the volatile
/// text) is redrawn in place: the cursor goes back up over it, clears it and writes it again.
/// Anywhere else (a pipe, a file) only final text is written, as it comes, a sentence per line
/// (speech without pauses is made final a few words at a time).
final class LiveTranscriptView: Sendable {
  /// A word on screen and whether it is final.
  private struct Word {
    var text: String
    var isFinal: Bool
  }

  private struct State {
    /// Final text not yet on a finished row.
    var openFinal: [String] = []
    /// The volatile text shown, with the audio it covers, in audio order.
    var volatile: [(range: CMTimeRange, text: String)] = []
    /// Rows the redrawn part takes on screen; the cursor is at the end of the last one.
    var drawnRows = 0
    /// Off a terminal: whether the last line written has not ended yet.
    var lineOpen = false
  }

  private let state = Mutex(State())
  private let isTerminal: Bool
  private let sharesTerminalWithErrors: Bool

  /// A view writing to standard output; `isTerminal` chooses between redrawing and final lines.
  init(isTerminal: Bool = isatty(STDOUT_FILENO) != 0) {
    self.isTerminal = isTerminal
    sharesTerminalWithErrors = isTerminal && isatty(STDERR_FILENO) != 0
  }

  /// Shows `result`: a final one adds its text and removes the volatile text of its audio; a
  /// volatile one replaces the volatile text of the audio it covers.
  func show(_ result: SpeechTranscriber.Result) {
    let text = String(result.text.characters).trimmingCharacters(in: .whitespacesAndNewlines)
    state.withLock { state in
      let range = result.range
      // Replace exactly the audio this result covers.
      state.volatile.removeAll { $0.range.start == range.start || range.containsTime($0.range.start) }
      if result.isFinal {
        guard isTerminal else {
          guard !text.isEmpty else { return }
          let endsSentence =
            text.trimmingCharacters(in: CharacterSet(charactersIn: "\"')»”’")).last
            .map { ".?!…".contains($0) } ?? false
          Self.write((state.lineOpen ? " " : "") + text + (endsSentence ? "\n" : ""), to: .standardOutput)
          state.lineOpen = !endsSentence
          return
        }
        if !text.isEmpty { state.openFinal.append(text) }
      } else {
        guard isTerminal else { return }
        if !text.isEmpty {
          state.volatile.append((range, text))
          state.volatile.sort { $0.range.start < $1.range.start }
        }
      }
      redraw(&state)
    }
  }

  /// Writes `line` to standard error without breaking the transcript shown on the terminal.
  func message(_ line: String) {
    state.withLock { state in
      guard sharesTerminalWithErrors, state.drawnRows > 0 else {
        Self.write("\(line)\n", to: .standardError)
        return
      }
      Self.write(Self.eraseRows(state.drawnRows), to: .standardOutput)
      state.drawnRows = 0
      Self.write("\(line)\n", to: .standardError)
      redraw(&state)
    }
  }

  /// Drops any volatile text and ends the transcript's last line; later text starts afresh.
  func finish() {
    state.withLock { state in
      guard isTerminal else {
        if state.lineOpen { Self.write("\n", to: .standardOutput) }
        state = State()
        return
      }
      state.volatile.removeAll()
      redraw(&state)
      if !state.openFinal.isEmpty { Self.write("\n", to: .standardOutput) }
      state = State()
    }
  }

  // MARK: - Drawing

  private func redraw(_ state: inout State) {
    let words =
      state.openFinal.flatMap(Self.words).map { Word(text: $0, isFinal: true) }
      + state.volatile.flatMap { Self.words($0.text) }.map { Word(text: $0, isFinal: false) }
    var rows = Self.wrap(words, width: max(Self.terminalWidth() - 1, 20))
    var output = Self.eraseRows(state.drawnRows)
    // A row followed by one that starts with a final word is complete for good: write it once.
    while rows.count > 1, rows[1].first?.isFinal == true {
      output += rows.removeFirst().map(\.text).joined(separator: " ") + "\n"
    }
    state.openFinal = rows.first.map { $0.filter(\.isFinal).map(\.text) } ?? []
    output += rows.map(Self.render).joined(separator: "\n")
    state.drawnRows = max(rows.count, 1)
    Self.write(output, to: .standardOutput)
  }

  /// Erases `rows` rows drawn earlier, one at a time, and leaves the cursor at the start of the
  /// first: "erase below" from the top of the screen would be a full clear, which tmux and other
  /// terminals keep in the scrollback.
  private static func eraseRows(_ rows: Int) -> String {
    let up = rows > 1 ? "\u{1B}[\(rows - 1)A" : ""
    return up + "\r\u{1B}[2K" + String(repeating: "\u{1B}[1B\u{1B}[2K", count: max(rows - 1, 0)) + up
  }

  /// A row of words, volatile ones dimmed (when colour is allowed; see ``TerminalStyle``).
  private static func render(_ row: [Word]) -> String {
    guard TerminalStyle.allowsColor() else { return row.map(\.text).joined(separator: " ") }
    var line = ""
    var dimmed = false
    for (index, word) in row.enumerated() {
      if word.isFinal == dimmed { line += word.isFinal ? "\u{1B}[22m" : "\u{1B}[2m" }
      dimmed = !word.isFinal
      line += (index == 0 ? "" : " ") + word.text
    }
    return line + (dimmed ? "\u{1B}[22m" : "")
  }

  /// Words into rows of at most `width` characters; a longer word is split.
  private static func wrap(_ words: [Word], width: Int) -> [[Word]] {
    var rows: [[Word]] = []
    var row: [Word] = []
    var used = 0
    for word in words {
      var word = word
      while word.text.count > width {
        if !row.isEmpty { rows.append(row) }
        rows.append([Word(text: String(word.text.prefix(width)), isFinal: word.isFinal)])
        word.text = String(word.text.dropFirst(width))
        row = []
        used = 0
      }
      let needed = used == 0 ? word.text.count : used + 1 + word.text.count
      if needed > width, !row.isEmpty {
        rows.append(row)
        row = [word]
        used = word.text.count
      } else {
        row.append(word)
        used = needed
      }
    }
    if !row.isEmpty { rows.append(row) }
    return rows
  }

  private static func words(_ text: String) -> [String] {
    text.split(whereSeparator: \.isWhitespace).map(String.init)
  }

  /// Columns of the terminal on standard output (80 when it cannot be asked).
  private static func terminalWidth() -> Int {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }

  private static func write(_ text: String, to handle: FileHandle) {
    handle.write(Data(text.utf8))
  }
}
