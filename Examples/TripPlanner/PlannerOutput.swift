import Foundation

/// Writes the itinerary to the terminal as it streams, and notes to standard error.
///
/// In a terminal the itinerary is streamed line by line: a line is printed once for good as soon
/// as the next one begins (the model writes the itinerary in order, so an earlier line no longer
/// changes), and only the line still being written is redrawn, counting the rows it wraps to at
/// the terminal's width, one row at a time. Nothing already printed is ever moved over, so the
/// scrollback holds the itinerary once, however long it grows.
enum PlannerOutput {
  /// Whether standard output is a terminal.
  static let isTerminal = isatty(STDOUT_FILENO) != 0

  /// A dimmed progress note on standard error.
  static func note(_ text: String) {
    let line = isatty(STDERR_FILENO) != 0 ? "\u{1B}[2m\(text)\u{1B}[0m\n" : "\(text)\n"
    FileHandle.standardError.write(Data(line.utf8))
  }

  /// The itinerary so far, as lines of text.
  static func lines(for itinerary: Itinerary.PartiallyGenerated) -> [String] {
    var lines: [String] = []
    if let title = itinerary.title { lines.append(bold(title)) }
    if let description = itinerary.description { lines.append(description) }
    if let rationale = itinerary.rationale { lines.append("Why: \(rationale)") }
    for (index, day) in (itinerary.days ?? []).enumerated() {
      lines.append("")
      lines.append(bold(heading(title: day.title ?? "Day \(index + 1)", destination: day.destination)))
      for activity in day.activities ?? [] {
        let kind = activity.type.map { "[\(label(for: $0))] " } ?? ""
        lines.append("  • \(kind)\(activity.title ?? "…")" + (activity.description.map { ": \($0)" } ?? ""))
      }
    }
    return lines
  }

  /// A day's heading: its title, and its destination unless the title already names it.
  static func heading(title: String, destination: String?) -> String {
    guard let destination, !destination.isEmpty, !title.localizedCaseInsensitiveContains(destination) else {
      return title
    }
    return "\(title) — \(destination)"
  }

  /// An activity kind as a person reads it: `foodAndDining` becomes "food and dining".
  static func label(for kind: Kind) -> String {
    var words = ""
    for character in String(describing: kind) {
      if character.isUppercase { words += " " }
      words += character.lowercased()
    }
    return words
  }

  /// Streams `lines` (the itinerary so far) to the terminal, given what `state` says is on it.
  static func stream(_ lines: [String], state: inout StreamState) {
    guard !lines.isEmpty else { return }
    var output = clearPartial(state: &state)
    // Every line but the last is final: print the ones not printed yet, once.
    for line in lines.dropLast().dropFirst(state.printedLines) { output += line + "\n" }
    state.printedLines = max(state.printedLines, lines.count - 1)
    let last = lines[lines.count - 1]
    output += last
    state.partialRows = rows(of: last)
    FileHandle.standardOutput.write(Data(output.utf8))
  }

  /// Prints what is left of the itinerary once streaming ends: the lines not printed for good yet.
  static func finish(_ lines: [String], state: inout StreamState) {
    var output = clearPartial(state: &state)
    for line in lines.dropFirst(state.printedLines) { output += line + "\n" }
    state.printedLines = lines.count
    FileHandle.standardOutput.write(Data(output.utf8))
  }

  /// The whole itinerary at once, for output that is not a terminal.
  static func print(_ lines: [String]) {
    FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
  }

  /// What streaming has put on the terminal.
  struct StreamState {
    /// Lines printed for good.
    var printedLines = 0
    /// Rows the line being written takes now (0 when none is shown).
    var partialRows = 0
  }

  /// The escape codes that erase the line being written, row by row, leaving the cursor at the
  /// start of its first row.
  ///
  /// Rows are erased one at a time (erase line, cursor down) rather than with "erase below":
  /// from the top of the screen that would be a full clear, which tmux and other terminals keep
  /// in the scrollback, a copy each time.
  private static func clearPartial(state: inout StreamState) -> String {
    guard state.partialRows > 0 else { return "" }
    let rows = state.partialRows
    let up = rows > 1 ? "\u{1B}[\(rows - 1)A" : ""
    state.partialRows = 0
    return "\r" + up + "\u{1B}[2K" + String(repeating: "\u{1B}[1B\u{1B}[2K", count: rows - 1) + up
  }

  /// Rows `line` takes at the terminal's width (escape codes take none).
  private static func rows(of line: String) -> Int {
    let visible = line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression).count
    return max(1, (visible + terminalColumns - 1) / terminalColumns)
  }

  /// The terminal's width in columns (80 when it cannot be asked).
  private static let terminalColumns: Int = {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }()

  private static func bold(_ text: String) -> String { isTerminal ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
}

/// Why the planner stopped, with what to do.
enum PlannerError: Error, LocalizedError {
  case missingDataset
  case unknownLandmark(String, known: [String])

  var errorDescription: String? {
    switch self {
    case .missingDataset: "the landmark dataset (landmarks.json) is missing from the build; rebuild the example"
    case .unknownLandmark(let name, let known):
      "no landmark called '\(name)'; choose one of: \(known.joined(separator: ", "))"
    }
  }
}
