import Foundation

/// What a person typed, turned into an FTS5 query that is never a syntax error.
///
/// Each space-separated word becomes a quoted phrase with a prefix star: `mar "o'neil` becomes
/// `"mar"* "o'neil"*`, so every word must match (in any field), each as the start of a word,
/// and quotes, `*`, `-`, parentheses, `AND`, `OR`, `NOT` and `NEAR` are only text. Inside the quotes
/// SQLite's tokenizer splits and folds the word exactly as it did the notes, so case and diacritics
/// never matter (`JOSE` finds "José") and `e-mail` matches "e-mail" and "e mail". Words without a
/// letter or digit are dropped, since they match nothing.
struct FullTextQuery: Equatable {
  /// The words kept, as typed.
  let words: [String]

  /// The longest query, in characters, and the most words in one: far more than anyone types,
  /// and small enough that no query makes the index do unbounded work.
  static let maximumLength = 1_000
  static let maximumWords = 50

  /// Splits `text` into words; throws ``NoteStoreError/emptyQuery`` when it holds only spaces and
  /// ``NoteStoreError/queryTooLong(characters:words:)`` past ``maximumLength`` or ``maximumWords``.
  init(_ text: String) throws(NoteStoreError) {
    let chunks = text.split(whereSeparator: \.isWhitespace)
    guard !chunks.isEmpty else { throw .emptyQuery }
    guard text.count <= Self.maximumLength, chunks.count <= Self.maximumWords else {
      throw .queryTooLong(characters: text.count, words: chunks.count)
    }
    words = chunks.filter { $0.contains { $0.isLetter || $0.isNumber } }.map(String.init)
  }

  /// Whether no word can match anything (the query was only punctuation).
  var matchesNothing: Bool { words.isEmpty }

  /// Words too common to say what a query is about, left out when any word may match.
  static let stopWords: Set<String> = [
    "a", "about", "all", "am", "an", "and", "any", "are", "at", "be", "been", "by", "can", "could", "did", "do",
    "does", "for", "from", "had", "has", "have", "he", "her", "him", "his", "how", "i", "if", "in", "is", "it", "its",
    "me", "my", "no", "not", "of", "on", "or", "our", "she", "should", "so", "that", "the", "their", "them", "then",
    "there", "they", "this", "to", "was", "we", "were", "what", "when", "where", "which", "who", "why", "will", "with",
    "would", "you", "your",
  ]

  /// The words a search looks for: all of them, or with `matchingAnyWord` those that are not
  /// ``stopWords`` (all of them when that leaves none).
  func searchedWords(matchingAnyWord: Bool) -> [String] {
    guard matchingAnyWord else { return words }
    let telling = words.filter { !Self.stopWords.contains(Self.foldedWords($0).joined(separator: " ")) }
    return telling.isEmpty ? words : telling
  }

  /// The FTS5 expression, limited to the columns of `scope`. With `matchingAnyWord`, a note
  /// matches when it holds any of the query's words but the ``stopWords`` (all of them when
  /// that leaves none), which is how a question finds notes by its telling words.
  ///
  /// - Parameter completions: The indexed words that start with a folded word, or nil when there
  ///   are too many to list. A word with a short list becomes an OR of exact words, which FTS5
  ///   walks lazily; otherwise it stays a prefix query, which merges every matching word's posting
  ///   list up front. A one-letter word matches only itself.
  func expression(
    in scope: SearchScope, matchingAnyWord: Bool = false, completions: (String) throws -> [String]? = { _ in nil }
  ) rethrows -> String {
    var parts: [String] = []
    for word in searchedWords(matchingAnyWord: matchingAnyWord) {
      let folded = Self.foldedWords(word)
      guard folded.count == 1, let token = folded.first else {
        parts.append(Self.quoted(word) + "*")
        continue
      }
      if token.count == 1 {
        parts.append(Self.quoted(token))
      } else if let listed = try completions(token) {
        let alternatives = [token] + listed.filter { $0 != token }
        parts.append("(" + alternatives.map(Self.quoted).joined(separator: " OR ") + ")")
      } else {
        parts.append(Self.quoted(token) + "*")
      }
    }
    let phrases = parts.joined(separator: matchingAnyWord ? " OR " : " AND ")
    guard let column = Self.column(of: scope) else { return phrases }
    return "{\(column)} : (\(phrases))"
  }

  /// `text` as an FTS5 string, its quotes doubled. By scalar: a quote followed by a combining mark
  /// is one Character, which a replacement by Character would leave single, ending the string early.
  private static func quoted(_ text: String) -> String {
    var quoted = String.UnicodeScalarView()
    quoted.append("\"")
    for scalar in text.unicodeScalars {
      if scalar == "\"" { quoted.append(scalar) }
      quoted.append(scalar)
    }
    quoted.append("\"")
    return String(quoted)
  }

  /// The full-text column of a field scope; nil for ``SearchScope/all``.
  static func column(of scope: SearchScope) -> String? {
    switch scope {
    case .all: nil
    case .title: "title"
    case .transcript: "transcript"
    case .summary: "summary"
    case .tags: "tags"
    case .people: "people"
    case .actionItems: "action_items"
    }
  }

  /// Whether every query word starts a word of `text`, ignoring case and diacritics: the same rule
  /// as the full-text search, for filtering inside a note (one action item's people).
  func matches(_ text: String) -> Bool {
    let candidates = Self.foldedWords(text)
    return words.allSatisfy { word in
      let parts = Self.foldedWords(word)
      return !parts.isEmpty && parts.allSatisfy { part in candidates.contains { $0.hasPrefix(part) } }
    }
  }

  /// `text` split at everything but letters and digits, lowercased, with diacritics removed
  /// (canonical decomposition, then combining marks dropped), as `unicode61 remove_diacritics 2` does.
  static func foldedWords(_ text: String) -> [String] {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return foldedASCIIWords(text) }
    var words: [String] = []
    var current = String.UnicodeScalarView()
    for scalar in text.decomposedStringWithCanonicalMapping.lowercased().unicodeScalars {
      let properties = scalar.properties
      if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark
        || properties.generalCategory == .spacingMark
      {
        continue
      }
      if properties.isAlphabetic || properties.numericType != nil {
        current.append(scalar)
      } else if !current.isEmpty {
        words.append(String(current))
        current = String.UnicodeScalarView()
      }
    }
    if !current.isEmpty { words.append(String(current)) }
    return words
  }

  /// ``foldedWords(_:)`` for ASCII text, without Unicode normalization.
  private static func foldedASCIIWords(_ text: String) -> [String] {
    var words: [String] = []
    var current: [UInt8] = []
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): current.append(byte)
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(byte + 32)
      default:
        if !current.isEmpty {
          words.append(String(decoding: current, as: UTF8.self))
          current.removeAll(keepingCapacity: true)
        }
      }
    }
    if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
    return words
  }
}
