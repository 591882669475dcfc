import Foundation

/// A note as Markdown, and the date and length formats people read it in: what `show` prints and
/// both the command line's and the web app's Markdown export write.
public enum NoteMarkdown {
  /// `2026-12-01 09:30`, in the machine's time zone.
  public static func date(_ date: Date) -> String { CalendarText.minutes(date) }

  /// ` 1:05` for 65 seconds (minutes padded to two places, for columns).
  public static func duration(_ seconds: Double) -> String {
    let total = Int(seconds.rounded())
    return String(format: "%2d:%02d", total / 60, total % 60)
  }

  /// The work a stage stands for, as a verb: "transcribing".
  public static func step(_ stage: ProcessingState.Stage) -> String {
    switch stage {
    case .recording: "saving the recording"
    case .transcribing: "transcribing"
    case .diarizing: "identifying speakers"
    case .analyzing, .done: "analysing"
    case .indexing: "indexing for search"
    }
  }

  /// The whole note: details, summary, tags, people, action items and the timed transcript.
  public static func render(_ note: VoiceNote) -> String {
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
    if !note.speakers.isEmpty {
      lines += ["", "## Speakers", ""]
      for speaker in note.speakers {
        let seconds = duration(speaker.duration).trimmingCharacters(in: .whitespaces)
        let known =
          speaker.name == nil
          ? "" : speaker.isConfirmed ? " (speaker \(speaker.number))" : " (speaker \(speaker.number), recognised)"
        lines.append("- \(speaker.label)\(known), \(seconds)")
      }
    }
    if let transcript = note.transcript {
      lines += ["", "## Transcript", ""]
      if transcript.segments.isEmpty { lines.append("(no speech)") }
      if transcript.hasSpeakers {
        lines += paragraphs(transcript, labels: note.speakers.labels)
      } else {
        for segment in transcript.segments {
          lines.append("[\(duration(segment.start).trimmingCharacters(in: .whitespaces))] \(segment.text)")
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A labelled transcript as one paragraph per turn, "[0:05] Priya: …", consecutive segments of
  /// one speaker joined, paragraphs apart.
  static func paragraphs(_ transcript: Transcript, labels: [Int: String]) -> [String] {
    var turns: [(start: Double, speaker: Int?, text: String)] = []
    for segment in transcript.segments {
      let text = segment.text.trimmingCharacters(in: .whitespaces)
      if let last = turns.last, last.speaker == segment.speaker {
        turns[turns.count - 1].text += " " + text
      } else {
        turns.append((segment.start, segment.speaker, text))
      }
    }
    var lines: [String] = []
    for (offset, turn) in turns.enumerated() {
      if offset > 0 { lines.append("") }
      let time = "[\(duration(turn.start).trimmingCharacters(in: .whitespaces))]"
      let label = turn.speaker.map { "\(labels[$0] ?? NoteSpeaker.defaultLabel(index: $0)): " } ?? ""
      lines.append("\(time) \(label)\(turn.text)")
    }
    return lines
  }

  /// `value` as pretty JSON with sorted keys, ISO 8601 dates and unescaped slashes: the JSON
  /// export of a note.
  public static func json<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}
