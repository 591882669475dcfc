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
  /// One line from ``matchedField`` in runs of text, each matched (a query word found) or not:
  /// what a page highlights without parsing ``snippet``.
  public var snippetRuns: [SnippetRun]
  /// Where in the recording the match is, in seconds: the start of the transcript segment or
  /// passage that matched, which a page opens the note at; nil when the match is not in the
  /// transcript.
  public var time: Double?
  /// How close in meaning the note's best passage is to the query (cosine similarity, at most 1),
  /// when the search was by meaning and found the note that way; nil otherwise. Unlike ``score``
  /// it compares across searches, so it can tell a note about the query from a weak match.
  public var similarity: Double?
  /// Where the note ranked among the matches by words (0 the best), when a hybrid search found it
  /// that way too; nil otherwise.
  public var keywordRank: Int?

  /// A run of a snippet's text.
  public struct SnippetRun: Sendable, Equatable {
    /// The text.
    public var text: String
    /// Whether it is a word the query matched.
    public var isMatch: Bool
  }

  /// One line from ``matchedField`` with the matched words between ``highlightStart`` and
  /// ``highlightEnd``.
  public var snippet: String {
    snippetRuns.map { $0.isMatch ? Self.highlightStart + $0.text + Self.highlightEnd : $0.text }.joined()
  }

  /// The note's identifier.
  public var id: String { note.id }

  /// A result for `note` that matched best in `matchedField`, at `time` seconds into the recording.
  public init(
    note: VoiceNote, score: Double, matchedField: SearchScope, snippetRuns: [SnippetRun], time: Double? = nil
  ) {
    self.note = note
    self.score = score
    self.matchedField = matchedField
    self.snippetRuns = snippetRuns
    self.time = time
  }

  /// Splits text marked with ``SearchHighlighter``'s private markers into runs.
  static func runs(ofMarked marked: String) -> [SnippetRun] {
    // By scalar: a marker followed by a combining mark (a word may start with one) is one Character.
    let start = SearchHighlighter.matchStart.unicodeScalars.first
    let end = SearchHighlighter.matchEnd.unicodeScalars.first
    var runs: [SnippetRun] = []
    var current = ""
    var inMatch = false
    for scalar in marked.unicodeScalars {
      if scalar == start || scalar == end {
        if !current.isEmpty { runs.append(SnippetRun(text: current, isMatch: inMatch)) }
        current = ""
        inMatch = scalar == start
      } else {
        current.unicodeScalars.append(scalar)
      }
    }
    if !current.isEmpty { runs.append(SnippetRun(text: current, isMatch: inMatch)) }
    return runs
  }
}
