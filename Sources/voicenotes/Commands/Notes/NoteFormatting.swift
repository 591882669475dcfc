import Foundation
import VoiceNotes

/// How notes read on the terminal and in exports.
enum NoteFormatting {
  static func date(_ date: Date) -> String { NoteMarkdown.date(date) }

  static func duration(_ seconds: Double) -> String { NoteMarkdown.duration(seconds) }

  static func state(_ state: ProcessingState) -> String {
    if state.lastError != nil { return "failed     " }
    switch state.stage {
    case .recording: return "recording  "
    case .transcribing: return "transcribing"
    case .analyzing: return "analysing  "
    case .done: return "done       "
    }
  }

  /// The work a stage stands for, as a verb: "transcribing".
  static func step(_ stage: ProcessingState.Stage) -> String { NoteMarkdown.step(stage) }

  /// The note as Markdown: what `show` prints and `export --format md` writes.
  static func markdown(_ note: VoiceNote) -> String { NoteMarkdown.render(note) }

  static func json<T: Encodable>(_ value: T) throws -> String { try NoteMarkdown.json(value) }
}
