import Foundation

/// A stretch of a note that the semantic index embeds on its own: a few transcript segments, the
/// summary, or one action item. A match on a passage opens the note at ``start``.
public struct NotePassage: Sendable, Equatable, Codable {
  /// What part of the note the passage comes from.
  public enum Kind: String, Sendable, Codable {
    /// Consecutive transcript segments.
    case transcript
    /// The analysis summary.
    case summary
    /// One action item's task.
    case actionItem
  }

  /// The note's identifier.
  public var noteID: String
  /// The passage's place among the note's passages, from 0.
  public var index: Int
  /// Where it comes from.
  public var kind: Kind
  /// Where in the recording it starts, in seconds (0 for the summary and action items).
  public var start: Double
  /// Where it ends, in seconds.
  public var end: Double
  /// The text that was embedded.
  public var text: String

  /// A passage of `noteID`.
  public init(noteID: String, index: Int, kind: Kind, start: Double, end: Double, text: String) {
    self.noteID = noteID
    self.index = index
    self.kind = kind
    self.start = start
    self.end = end
    self.text = text
  }

  /// The most words a transcript passage gathers from consecutive segments. Whisper's segments
  /// are often a few words ("Okay, so."), too short to carry a meaning of their own; a passage of
  /// one to three sentences is what a sentence-embedding model was trained on.
  public static let wordsPerPassage = 48

  /// The passages of `note`: its transcript in stretches of whole segments up to
  /// ``wordsPerPassage`` words (a new stretch where the speaker changes), then its summary, then
  /// each action item.
  public static func passages(of note: VoiceNote) -> [NotePassage] {
    var passages: [NotePassage] = []
    func add(_ kind: Kind, _ start: Double, _ end: Double, _ text: String) {
      let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !trimmed.isEmpty else { return }
      passages.append(
        NotePassage(noteID: note.id, index: passages.count, kind: kind, start: start, end: end, text: trimmed))
    }
    var current: [Transcript.Segment] = []
    var words = 0
    func flush() {
      guard let first = current.first, let last = current.last else { return }
      add(.transcript, first.start, last.end, current.map(\.text).joined(separator: " "))
      current = []
      words = 0
    }
    for segment in note.transcript?.segments ?? [] {
      let count = segment.text.split(whereSeparator: \.isWhitespace).count
      if !current.isEmpty, words + count > wordsPerPassage || segment.speaker != current.last?.speaker { flush() }
      current.append(segment)
      words += count
    }
    flush()
    if let summary = note.summary { add(.summary, 0, 0, summary) }
    for item in note.actionItems { add(.actionItem, 0, 0, item.task) }
    return passages
  }
}
