/// Finds a search's words in a note's text and cuts a one-line snippet around them, the way the
/// full-text index matched them: ignoring case and diacritics, each query word the start of a word.
///
/// Done on the loaded note rather than by SQLite's `snippet()`, which would evaluate the query
/// again for every result (costly for prefixes of common words in a large library).
struct SearchHighlighter {
  /// One word of the text: where it is, and its folded forms.
  private struct Token {
    let range: Range<String.Index>
    let folded: [String]
  }

  /// How well a text matched, and the snippet cut from it.
  struct Match {
    /// How many different query words the text holds.
    var distinctWords: Int
    /// How many words of the text matched.
    var occurrences: Int
    /// One line with each matched word between ``matchStart`` and ``matchEnd``.
    var snippet: String
  }

  /// Marks the start of a matched word in a snippet (a private-use character, never in text).
  static let matchStart: Character = "\u{E000}"
  /// Marks the end of a matched word in a snippet.
  static let matchEnd: Character = "\u{E001}"

  /// Both markers, as scalars.
  private static let markers: Set<Unicode.Scalar> = [
    matchStart.unicodeScalars.first!, matchEnd.unicodeScalars.first!,
  ]

  /// The folded query words to look for.
  let parts: [String]
  /// The most words a snippet shows.
  let snippetWords: Int

  /// A highlighter for the words of `query` that its search looks for (`matchingAnyWord` as
  /// there: a stop word that did not make a note match is not marked in it).
  init(_ query: FullTextQuery, matchingAnyWord: Bool = false, snippetWords: Int = 16) {
    var parts: [String] = []
    for part in query.searchedWords(matchingAnyWord: matchingAnyWord).flatMap(FullTextQuery.foldedWords)
    where !parts.contains(part) {
      parts.append(part)
    }
    self.parts = parts
    self.snippetWords = snippetWords
  }

  /// The query's words in `text`, with a snippet around the densest run of them; nil when none is there.
  func match(_ text: String) -> Match? {
    let tokens = Self.tokens(of: text)
    let matched = tokens.map { token in
      parts.indices.filter { part in token.folded.contains { $0.hasPrefix(parts[part]) } }
    }
    let hits = matched.indices.filter { !matched[$0].isEmpty }
    guard let firstHit = hits.first else { return nil }
    let distinct = Set(matched.flatMap { $0 }).count

    // The window with the most different query words, starting a little before a match.
    var bestStart = max(0, firstHit - 2)
    var bestScore = -1
    for hit in hits {
      let start = max(0, min(hit - 2, tokens.count - snippetWords))
      let window = matched[start..<min(tokens.count, start + snippetWords)]
      let score = Set(window.flatMap { $0 }).count * 1000 + window.filter { !$0.isEmpty }.count
      if score > bestScore { (bestStart, bestScore) = (start, score) }
    }
    let end = min(tokens.count, bestStart + snippetWords)

    // The markers are taken out of the text itself, so that only ours mark matches.
    let scalars = text.unicodeScalars
    func plain(_ range: Range<String.Index>) -> String {
      String(String.UnicodeScalarView(scalars[range].filter { !Self.markers.contains($0) }))
    }
    var snippet = bestStart > 0 ? "…" : ""
    var cursor = tokens[bestStart].range.lowerBound
    for index in bestStart..<end {
      let token = tokens[index]
      snippet += plain(cursor..<token.range.lowerBound)
      let word = plain(token.range)
      snippet += matched[index].isEmpty ? word : String(Self.matchStart) + word + String(Self.matchEnd)
      cursor = token.range.upperBound
    }
    if end < tokens.count {
      snippet += "…"
    } else {
      snippet += plain(cursor..<scalars.endIndex)
    }
    return Match(
      distinctWords: distinct, occurrences: hits.count,
      snippet: snippet.split(whereSeparator: \.isWhitespace).joined(separator: " "))
  }

  /// The runs of letters, digits and combining marks in `text`, folded; ASCII words without any
  /// Unicode work.
  private static func tokens(of text: String) -> [Token] {
    let scalars = text.unicodeScalars
    var tokens: [Token] = []
    var start: String.Index?
    var folded: [UInt8] = []
    var isASCII = true
    func finish(_ start: String.Index, _ end: String.Index) {
      let forms =
        isASCII
        ? [String(decoding: folded, as: UTF8.self)] : FullTextQuery.foldedWords(String(scalars[start..<end]))
      tokens.append(Token(range: start..<end, folded: forms))
    }
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let scalar = scalars[index]
      let isWord: Bool
      if scalar.isASCII {
        let value = scalar.value
        isWord = (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        // Setting bit 5 lowercases a letter and leaves a digit alone.
        if isWord { folded.append(UInt8(value | 0x20)) }
      } else {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: isWord = true
        default: isWord = properties.isAlphabetic || properties.numericType != nil
        }
        if isWord { isASCII = false }
      }
      if isWord {
        if start == nil { start = index }
      } else if let wordStart = start {
        finish(wordStart, index)
        start = nil
        folded.removeAll(keepingCapacity: true)
        isASCII = true
      }
      index = scalars.index(after: index)
    }
    if let wordStart = start { finish(wordStart, scalars.endIndex) }
    return tokens
  }
}
