import Foundation

/// Word error rate: how far a transcript is from a reference, in edits per reference word.
///
/// Both texts are normalised first (case, punctuation, hyphens, a few spoken forms such as
/// "Mr." for "mister"), so that only real recognition errors count.
public struct WordErrorRate: Sendable, Equatable, CustomStringConvertible {
  /// Words substituted, deleted and inserted, in total.
  public var edits: Int
  /// Words in the reference.
  public var referenceWords: Int

  /// The rate, 0 for a perfect transcript (it can exceed 1 when many words are inserted).
  public var rate: Double { referenceWords == 0 ? (edits == 0 ? 0 : 1) : Double(edits) / Double(referenceWords) }

  /// The rate as a percentage with one decimal, for example "1.4%".
  public var description: String { String(format: "%.1f%% (%d edits / %d words)", rate * 100, edits, referenceWords) }

  /// Compares `hypothesis` against `reference`.
  public init(reference: String, hypothesis: String) {
    let expected = Self.normalizedWords(reference)
    let actual = Self.normalizedWords(hypothesis)
    edits = Self.editDistance(expected, actual)
    referenceWords = expected.count
  }

  /// Adds the edits and words of another comparison, for a rate over a whole set.
  public static func + (lhs: WordErrorRate, rhs: WordErrorRate) -> WordErrorRate {
    var sum = lhs
    sum.edits += rhs.edits
    sum.referenceWords += rhs.referenceWords
    return sum
  }

  /// An empty tally, the start of a sum.
  public static let zero = WordErrorRate(edits: 0, referenceWords: 0)

  private init(edits: Int, referenceWords: Int) {
    self.edits = edits
    self.referenceWords = referenceWords
  }

  private static let spokenForms = ["mr": "mister", "mrs": "missus", "dr": "doctor", "st": "saint"]

  /// Lower-case words with punctuation removed and hyphenated words split.
  public static func normalizedWords(_ text: String) -> [String] {
    let folded = text.lowercased().folding(options: [.diacriticInsensitive], locale: nil)
    var words: [String] = []
    for raw in folded.split(whereSeparator: { $0.isWhitespace || $0 == "-" || $0 == "—" || $0 == "–" }) {
      let word = String(raw.filter { $0.isLetter || $0.isNumber || $0 == "'" })
        .trimmingCharacters(in: CharacterSet(charactersIn: "'"))
      guard !word.isEmpty else { continue }
      words.append(spokenForms[word] ?? word)
    }
    return words
  }

  private static func editDistance(_ a: [String], _ b: [String]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
