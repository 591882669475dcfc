import Foundation
import Synchronization

/// The numbered sources of one conversation: every excerpt the model is shown (found before the
/// question, or by a tool it calls) gets the next number, which its answer cites.
public final class CitationBook: Sendable {
  private let entries = Mutex<[NoteCitation]>([])

  /// An empty book.
  public init() {}

  /// Every citation so far, by number.
  public var all: [NoteCitation] { entries.withLock { $0 } }

  /// The citation with this number.
  public func citation(_ number: Int) -> NoteCitation? {
    entries.withLock { list in list.first { $0.number == number } }
  }

  /// Numbers `text` from the note, at `time` seconds into it; the same excerpt shown twice keeps
  /// its first number.
  public func add(_ text: String, of note: VoiceNote, at time: Double?) -> NoteCitation {
    entries.withLock { list in
      if let known = list.first(where: { $0.noteID == note.id && $0.time == time && $0.text == text }) { return known }
      let citation = NoteCitation(
        number: list.count + 1, noteID: note.id, title: note.title, recordedAt: note.createdAt, time: time, text: text)
      list.append(citation)
      return citation
    }
  }

  /// The excerpt as the model reads it:
  /// `[3] from the note "Dentist and car", recorded 1 Dec 2026 at 09:30, at 0:42: …`.
  public static func line(_ citation: NoteCitation) -> String {
    heading(citation) + ": " + citation.text
  }

  /// Where the excerpt is from, as the model reads it: `[3] from the note "Dentist and car",
  /// recorded 1 Dec 2026 at 09:30, at 0:42`.
  static func heading(_ citation: NoteCitation) -> String {
    let place = citation.time.map { ", at " + NoteMarkdown.duration($0).trimmingCharacters(in: .whitespaces) } ?? ""
    return
      "[\(citation.number)] from the note \"\(citation.title)\", recorded \(CalendarText.spoken(citation.recordedAt))"
      + place
  }
}
