/// A note that matched a search, with why it matched.
///
/// The ``snippet`` is one line of the field that matched best, with each matched word between
/// ``highlightStart`` and ``highlightEnd`` and "…" where text was left out:
/// `"…then call [Marcus] about the budget…"`.
public struct SearchResult: Sendable, Equatable, Identifiable {
  /// The text placed before each matched word in ``snippet``.
  public static let highlightStart = "["
  /// The text placed after each matched word in ``snippet``.
  public static let highlightEnd = "]"

  /// The note that matched.
  public var note: VoiceNote
  /// How well it matched: higher is better (BM25's term-frequency score, title and people
  /// weighted above the rest). Comparable only between results of the same search.
  public var score: Double
  /// The field that contributed most to the match (never ``SearchScope/all``).
  public var matchedField: SearchScope
  /// One line from ``matchedField`` with the matched words highlighted.
  public var snippet: String

  /// The note's identifier.
  public var id: String { note.id }

  /// A result for `note` that matched best in `matchedField`.
  public init(note: VoiceNote, score: Double, matchedField: SearchScope, snippet: String) {
    self.note = note
    self.score = score
    self.matchedField = matchedField
    self.snippet = snippet
  }
}
