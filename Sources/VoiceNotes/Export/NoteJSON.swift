import Foundation

/// A note as the command line prints it with `--json` and exports it as JSON: stable fields,
/// documented in docs/cli.md, with the transcript only as much as asked for.
///
/// A list needs no transcript, a note's page needs its timed segments, and only a caller that
/// asks (`--words`) gets every word's timing and confidence, which is most of a note's size.
public struct NoteJSON: Encodable, Sendable {
  /// How much of the transcript goes in.
  public enum Detail: Sendable {
    /// No transcript: for lists.
    case overview
    /// The transcript's text and timed segments, without words.
    case segments
    /// Segments with each word's timing and confidence.
    case words
  }

  /// The note.
  public var note: VoiceNote
  /// How much of its transcript to write.
  public var detail: Detail

  /// The JSON for `note` with `detail` of its transcript.
  public init(_ note: VoiceNote, detail: Detail) {
    self.note = note
    self.detail = detail
  }

  private enum Key: String, CodingKey {
    case id, title, customTitle, createdAt, duration, originalFileName, state, error, summary, tags, people
    case actionItems, transcript, speakers
  }

  private enum TranscriptKey: String, CodingKey {
    case language, duration, text, segments
  }

  private struct Segment: Encodable {
    var start: Double
    var end: Double
    var text: String
    var words: [Transcript.Word]?
    var speaker: String?
    var speakerNumber: Int?
  }

  /// A speaker of the note: its number (from 1, as segments' `speakerNumber`), what it reads as, the
  /// named voice's name when known, its seconds of speech, and whether the person said who it is.
  private struct Speaker: Encodable {
    var number: Int
    var label: String
    var name: String?
    var seconds: Double
    var confirmed: Bool
  }

  /// Writes the fields listed in docs/cli.md.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(note.id, forKey: .id)
    try container.encode(note.title, forKey: .title)
    try container.encode(note.hasCustomTitle, forKey: .customTitle)
    try container.encode(note.createdAt, forKey: .createdAt)
    try container.encode(note.duration, forKey: .duration)
    try container.encode(note.originalFileName, forKey: .originalFileName)
    try container.encode(Self.state(of: note.processing), forKey: .state)
    try container.encodeIfPresent(note.processing.lastError, forKey: .error)
    try container.encodeIfPresent(note.summary, forKey: .summary)
    try container.encode(note.tags, forKey: .tags)
    try container.encode(note.people, forKey: .people)
    try container.encode(note.actionItems, forKey: .actionItems)
    if !note.speakers.isEmpty {
      try container.encode(
        note.speakers.map {
          Speaker(number: $0.number, label: $0.label, name: $0.name, seconds: $0.duration, confirmed: $0.isConfirmed)
        }, forKey: .speakers)
    }
    guard detail != .overview, let transcript = note.transcript else { return }
    let labels = note.speakers.labels
    var nested = container.nestedContainer(keyedBy: TranscriptKey.self, forKey: .transcript)
    try nested.encodeIfPresent(transcript.language, forKey: .language)
    try nested.encode(transcript.duration, forKey: .duration)
    try nested.encode(transcript.text, forKey: .text)
    try nested.encode(
      transcript.segments.map {
        Segment(
          start: $0.start, end: $0.end, text: $0.text, words: detail == .words ? $0.words : nil,
          speaker: $0.speaker.map { labels[$0] ?? NoteSpeaker.defaultLabel(index: $0) },
          speakerNumber: $0.speaker.map { $0 + 1 })
      }, forKey: .segments)
  }

  /// The note's state in one word: `recording`, `transcribing`, `analyzing`, `done` or `failed`.
  public static func state(of processing: ProcessingState) -> String {
    processing.lastError == nil ? processing.stage.rawValue : "failed"
  }
}
