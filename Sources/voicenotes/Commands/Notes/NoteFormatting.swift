import Foundation
import VoiceNotes

/// How notes read on the terminal and in exports.
enum NoteFormatting {
  static func date(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_GB")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.string(from: date)
  }

  static func duration(_ seconds: Double) -> String {
    let total = Int(seconds.rounded())
    return String(format: "%2d:%02d", total / 60, total % 60)
  }

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
  static func step(_ stage: ProcessingState.Stage) -> String {
    switch stage {
    case .recording: "saving the recording"
    case .transcribing: "transcribing"
    case .analyzing, .done: "analysing"
    }
  }

  /// The note as Markdown: what `show` prints and `export --format md` writes.
  static func markdown(_ note: VoiceNote) -> String {
    var lines = ["# \(note.title)", ""]
    lines.append("- id: \(note.id)")
    lines.append("- recorded: \(date(note.createdAt)), \(duration(note.duration).trimmingCharacters(in: .whitespaces))")
    lines.append("- file: \(note.originalFileName)")
    if let error = note.processing.lastError {
      lines.append("- failed while \(step(note.processing.stage)): \(error)")
      lines.append("  (run `voicenotes retry \(note.id.prefix(8))`)")
    } else if note.processing.stage != .done {
      lines.append("- waiting: \(note.processing.stage.rawValue)")
    }
    if let summary = note.summary { lines += ["", "## Summary", "", summary] }
    if !note.tags.isEmpty { lines += ["", "## Tags", "", note.tags.joined(separator: ", ")] }
    if !note.people.isEmpty { lines += ["", "## People", "", note.people.joined(separator: ", ")] }
    if !note.actionItems.isEmpty {
      lines += ["", "## Action items", ""]
      for item in note.actionItems {
        let people = item.people.isEmpty ? "" : " (\(item.people.joined(separator: ", ")))"
        lines.append("- [\(item.isCompleted ? "x" : " ")] \(item.task)\(people)  `\(item.id.prefix(8))`")
      }
    }
    if let transcript = note.transcript {
      lines += ["", "## Transcript", ""]
      if transcript.segments.isEmpty { lines.append("(no speech)") }
      for segment in transcript.segments {
        lines.append("[\(duration(segment.start).trimmingCharacters(in: .whitespaces))] \(segment.text)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func json<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}
