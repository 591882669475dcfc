import Foundation

/// Where a statement in an answer comes from: a note, and the moment in its recording.
///
/// Answers refer to citations by ``number`` in brackets ("the dentist on Tuesday [2]"); a page
/// links each number to the note at ``time``.
public struct NoteCitation: Sendable, Equatable, Codable, Identifiable {
  /// The number the answer writes in brackets, from 1.
  public var number: Int
  /// The note's identifier.
  public var noteID: String
  /// The note's title.
  public var title: String
  /// When the note was recorded.
  public var recordedAt: Date
  /// Where in the recording the cited words start, in seconds; nil for the summary or an action item.
  public var time: Double?
  /// The words the model was shown under this number.
  public var text: String

  /// The citation's number, which is unique within a conversation.
  public var id: Int { number }

  /// A citation of `text` from the note `noteID`.
  public init(number: Int, noteID: String, title: String, recordedAt: Date, time: Double?, text: String) {
    self.number = number
    self.noteID = noteID
    self.title = title
    self.recordedAt = recordedAt
    self.time = time
    self.text = text
  }

  /// "Dentist and car, 0:42" (the time left out when there is none): how a reader is told the source.
  public var label: String {
    guard let time else { return title }
    return "\(title), \(NoteMarkdown.duration(time).trimmingCharacters(in: .whitespaces))"
  }
}
