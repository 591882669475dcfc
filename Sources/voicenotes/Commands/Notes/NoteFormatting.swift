import Foundation
import VoiceNotes

/// How notes read on the terminal and in exports.
enum NoteFormatting {
  static func date(_ date: Date) -> String { NoteMarkdown.date(date) }

  /// The note's length for a column: ` 1:05`, right-aligned in six characters.
  static func duration(_ seconds: Double) -> String {
    let text = NoteMarkdown.duration(seconds)
    return String(repeating: " ", count: max(0, 6 - text.count)) + text
  }

  /// The note's state in one word a person reads: "analysing", "failed".
  static func state(_ state: ProcessingState) -> String {
    if state.lastError != nil { return "failed" }
    switch state.stage {
    case .recording: return "recording"
    case .transcribing: return "transcribing"
    case .diarizing: return "speakers"
    case .analyzing: return "analysing"
    case .indexing: return "indexing"
    case .done: return "done"
    }
  }

  /// ``state(_:)`` padded for a column and coloured on a terminal: green when done, red when failed.
  static func styledState(_ processing: ProcessingState) -> String {
    let word = state(processing)
    let padded = word.padding(toLength: 12, withPad: " ", startingAt: 0)
    switch word {
    case "done": return TerminalStyle.apply(.good, padded)
    case "failed": return TerminalStyle.apply(.bad, padded)
    default: return padded
    }
  }

  /// The header of `list`'s columns.
  static var listHeader: String {
    "ID".padding(toLength: 10, withPad: " ", startingAt: 0)
      + "CREATED".padding(toLength: 18, withPad: " ", startingAt: 0)
      + "LENGTH  " + "STATE".padding(toLength: 14, withPad: " ", startingAt: 0) + "TITLE"
  }

  /// `text` safe to print on a terminal: control characters (escape sequences, newlines, tabs)
  /// become spaces, so a title cannot move the cursor or change colours.
  static func terminalText(_ text: String) -> String { text.withControlCharactersAsSpaces }

  /// The first eight characters of an identifier, coloured as identifiers are.
  static func shortID(_ id: String) -> String { TerminalStyle.apply(.identifier, String(id.prefix(8))) }

  /// The work a stage stands for, as a verb: "transcribing".
  static func step(_ stage: ProcessingState.Stage) -> String { NoteMarkdown.step(stage) }

  /// The note as Markdown: what `show` prints and `export --format md` writes.
  static func markdown(_ note: VoiceNote) -> String { NoteMarkdown.render(note) }

  static func json<T: Encodable>(_ value: T) throws -> String { try NoteMarkdown.json(value) }
}
