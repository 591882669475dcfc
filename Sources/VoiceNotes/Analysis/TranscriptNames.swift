import Foundation

/// The names a transcript uses, for checking the people a model reports against it.
///
/// A reported name counts only when the transcript says it: its words (up to a possessive, so
/// "Dr. Haddad's office" finds "Dr. Haddad") appear in a row, capitalised, ignoring case,
/// diacritics, punctuation and the possessive "'s". The name is then
/// written as the transcript spells it ("Ines" becomes "Inês"), with an abbreviated title that
/// precedes it there ("Haddad" after "Dr." becomes "Dr. Haddad").
struct TranscriptNames {
  /// A word of the transcript.
  private struct Word {
    /// The word as written, without surrounding punctuation or a possessive.
    var text: String
    /// The word folded for comparison.
    var folded: String
    /// Whether it starts with a capital letter.
    var isCapitalised: Bool
    /// Whether it is an abbreviated title with a full stop, such as "Dr." or "Mrs.".
    var isAbbreviation: Bool
  }

  private let words: [Word]

  /// The names of `transcript`.
  init(_ transcript: String) {
    words = transcript.split(whereSeparator: \.isWhitespace).compactMap { raw in
      let (text, isAbbreviation) = Self.clean(raw)
      guard !text.isEmpty else { return nil }
      return Word(
        text: text, folded: Self.fold(text), isCapitalised: text.first?.isUppercase == true,
        isAbbreviation: isAbbreviation)
    }
  }

  /// Titles written abbreviated with a full stop before a name: a small closed class, unlike
  /// the words a full stop can follow at the end of a sentence.
  static let abbreviatedTitles: Set<String> = [
    "dr", "mr", "mrs", "ms", "mx", "prof", "rev", "fr", "sr", "st", "capt", "sgt", "lt", "col", "gen", "hon",
  ]

  /// Lowercase words that belong inside names ("Ludwig van Beethoven").
  private static let particles: Set<String> = [
    "de", "da", "del", "della", "van", "von", "der", "den", "la", "le", "bin", "al", "di", "du", "dos",
  ]

  /// The transcript's spelling of `name`, or nil when the transcript does not name it.
  func spelling(of name: String) -> String? {
    let raw = name.split(whereSeparator: \.isWhitespace)
    let parts = raw.map { Self.clean($0).text }
    guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
    let folded = parts.map(Self.fold)
    // Words after a possessive are not the name ("Dr. Haddad's office"), and a title the model
    // added that the transcript does not use ("Mr. Osei" for "Osei") is left out.
    let end = raw.firstIndex { Self.isPossessive($0) }.map { $0 + 1 } ?? parts.count
    for start in 0..<end {
      guard let range = find(Array(folded[start..<end])) else { continue }
      var first = range.lowerBound
      if first > 0, words[first - 1].isAbbreviation, words[first - 1].isCapitalised { first -= 1 }
      return words[first..<range.upperBound].map { $0.isAbbreviation ? $0.text + "." : $0.text }
        .joined(separator: " ")
    }
    return nil
  }

  /// Whether the text names `name`, in full, by its last words ("Halvorsen" for "Mr.
  /// Halvorsen") or by its first word when that is not a title ("Ursula" for "Ursula Whitcombe").
  func mentions(_ name: String) -> Bool {
    if spelling(of: name) != nil { return true }
    let parts = name.split(whereSeparator: \.isWhitespace)
    guard parts.count > 1, let first = parts.first else { return false }
    let (text, isAbbreviation) = Self.clean(first)
    return !isAbbreviation && !Self.titles.contains(Self.fold(text)) && spelling(of: text) != nil
  }

  /// Titles written out in full before a name ("Aunt Rosa", "Professor Adeyemi").
  private static let titles: Set<String> = [
    "aunt", "auntie", "uncle", "grandma", "grandpa", "professor", "doctor", "mister", "miss", "madam", "sister",
    "brother", "father", "mother", "coach", "judge", "officer", "captain", "pastor", "rabbi", "imam",
  ]

  private static func isPossessive(_ word: Substring) -> Bool {
    let trimmed = word.trimmingCharacters(in: .punctuationCharacters.subtracting(CharacterSet(charactersIn: "'’")))
    return trimmed.hasSuffix("'s") || trimmed.hasSuffix("’s")
  }

  /// Where `wanted` appears as consecutive words, each capitalised (particles aside).
  private func find(_ wanted: [String]) -> Range<Int>? {
    guard wanted.count <= words.count else { return nil }
    for start in 0...(words.count - wanted.count) {
      let range = start..<(start + wanted.count)
      let matches = zip(words[range], wanted).allSatisfy { word, part in
        word.folded == part && (word.isCapitalised || Self.particles.contains(part))
      }
      if matches && words[range].contains(where: \.isCapitalised) { return range }
    }
    return nil
  }

  /// A raw word without surrounding punctuation or a possessive, and whether it is an
  /// abbreviated title with a full stop ("Dr.", "Mrs.").
  private static func clean(_ raw: Substring) -> (text: String, isAbbreviation: Bool) {
    var text = String(raw)
    let endsWithStop = text.hasSuffix(".")
    text = text.trimmingCharacters(in: CharacterSet.letters.inverted)
    for possessive in ["'s", "’s", "'", "’"] where text.hasSuffix(possessive) {
      text.removeLast(possessive.count)
      break
    }
    let isAbbreviation = endsWithStop && abbreviatedTitles.contains(text.lowercased())
    return (text, isAbbreviation)
  }

  private static func fold(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }
}
