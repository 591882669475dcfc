/// Which parts of a note a search looks in, as the app's search scopes offer them.
///
/// ```swift
/// let results = try await store.search("mar", scope: .people)
/// ```
public enum SearchScope: String, CaseIterable, Codable, Sendable {
  /// Every field below.
  case all
  /// The note's title.
  case title
  /// The transcript's text.
  case transcript
  /// The analysis summary.
  case summary
  /// The note's tags.
  case tags
  /// People named in the note, and people its action items involve.
  case people
  /// The action items' tasks and the people they involve.
  case actionItems

  /// The scopes that name one field (every case but ``all``), in the full-text index's column order.
  public static var fields: [SearchScope] { allCases.filter { $0 != .all } }

  /// A name for people to read: "All", "Action Items".
  public var displayName: String {
    switch self {
    case .all: "All"
    case .title: "Title"
    case .transcript: "Transcript"
    case .summary: "Summary"
    case .tags: "Tags"
    case .people: "People"
    case .actionItems: "Action Items"
    }
  }
}
