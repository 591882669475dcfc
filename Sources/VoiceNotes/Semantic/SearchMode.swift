/// How a search finds notes: by their words, by their meaning, or both.
public enum SearchMode: String, CaseIterable, Codable, Sendable {
  /// Words and meaning, each list ranked on its own and fused by reciprocal rank: the default once
  /// the library has a semantic index.
  case hybrid
  /// The full-text index alone: every word of the query must appear.
  case keyword
  /// The semantic index alone: passages whose meaning is closest to the query's.
  case semantic
}
