import Foundation

/// IPA reduced to what matters for deciding whether two spellings sound alike, and a weighted edit
/// distance between two such sequences.
///
/// Normalising drops stress, length, syllable breaks, ties and diacritics, and folds the variants
/// English speakers (and espeak-ng's voices) swap freely: close vowels (`ɪ`/`i`, `ʊ`/`u`), open-mid
/// and close-mid vowels, reduced vowels into `ə`, r-coloured vowels into `ə` + `ɹ`, every r into `ɹ`,
/// the flap into `t`. Repeated units collapse (`ɚɹ` from linking r counts once).
public struct PhonemeSequence: Sendable, Hashable, CustomStringConvertible {
  /// The normalised phonemes, one Unicode scalar each.
  public let units: [Unicode.Scalar]

  /// Normalises IPA text (espeak-ng's output, or ``XSAMPA/ipa(for:grapheme:)``'s).
  public init(ipa: String) {
    var units: [Unicode.Scalar] = []
    for scalar in ipa.unicodeScalars {
      for unit in Self.normalized(scalar).unicodeScalars where units.last != unit {
        units.append(unit)
      }
    }
    self.units = units
  }

  /// The number of normalised phonemes.
  public var count: Int { units.count }

  /// The normalised phonemes as text, for logs and tests.
  public var description: String {
    var text = ""
    text.unicodeScalars.append(contentsOf: units)
    return text
  }

  /// The cost of turning `self` into `other`: 1 per inserted or deleted phoneme (0.5 for `ə`),
  /// 0.25 to 0.5 for a similar vowel or a voicing/place neighbour, 1 for anything else.
  public func distance(to other: PhonemeSequence) -> Double {
    let a = units
    let b = other.units
    if a.isEmpty { return b.reduce(0) { $0 + Self.indelCost($1) } }
    if b.isEmpty { return a.reduce(0) { $0 + Self.indelCost($1) } }
    var previous = [0.0]
    for unit in b { previous.append(previous.last! + Self.indelCost(unit)) }
    var current = previous
    for i in 1...a.count {
      current[0] = previous[0] + Self.indelCost(a[i - 1])
      for j in 1...b.count {
        current[j] = Swift.min(
          previous[j] + Self.indelCost(a[i - 1]),
          current[j - 1] + Self.indelCost(b[j - 1]),
          previous[j - 1] + Self.substitutionCost(a[i - 1], b[j - 1]))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }

  /// How far a transcript may be from a pronunciation of `count` phonemes and still match it:
  /// nothing up to 4 phonemes, then 0.5 more for every 4 phonemes.
  public static func allowedDistance(forLength count: Int) -> Double {
    Double(Swift.max(0, (count - 1) / 4)) * 0.5
  }

  // MARK: - Normalisation

  private static let vowels: Set<Unicode.Scalar> = ["i", "u", "e", "o", "ə", "a", "æ"]

  private static let folded: [Unicode.Scalar: String] = {
    var map: [Unicode.Scalar: String] = [:]
    func fold(_ scalars: String, into target: String) {
      for scalar in scalars.unicodeScalars { map[scalar] = target }
    }
    fold("iɪᵻɨyʏ", into: "i")
    fold("uʊʉɯᵿ", into: "u")
    fold("eɛɘøœ", into: "e")
    fold("oɔɵɤ", into: "o")
    fold("əɐʌɞ", into: "ə")
    fold("ɜɚɝ˞", into: "əɹ")
    fold("aɑɒɶ", into: "a")
    fold("rɹʁʀɻɽ", into: "ɹ")
    fold("ɾ", into: "t")
    fold("lɫɭʟɺ", into: "l")
    fold("gɡɢ", into: "g")
    fold("mɱ", into: "m")
    fold("nɳɴ", into: "n")
    fold("wʍ", into: "w")
    fold("hɦ", into: "h")
    fold("ʃʂɕ", into: "ʃ")
    fold("ʒʐʑ", into: "ʒ")
    fold("dɖ", into: "d")
    fold("tʈ", into: "t")
    map["ʤ"] = "dʒ"
    map["ʧ"] = "tʃ"
    map["ʦ"] = "ts"
    map["ʣ"] = "dz"
    // Dropped: stress, length, breaks, ties, the glottal stop and secondary articulations.
    for scalar in "ˈˌːˑ.‿|‖-ʔʰʷʲˠˤⁿˡ'\"".unicodeScalars { map[scalar] = "" }
    return map
  }()

  private static func normalized(_ scalar: Unicode.Scalar) -> String {
    if let folded = folded[scalar] { return folded }
    if scalar.properties.isWhitespace { return "" }
    // Combining marks (diacritics and tie bars) and zero-width joiners carry nothing we compare.
    if (0x0300...0x036F).contains(scalar.value) || scalar.value == 0x200D || scalar.value == 0x200C { return "" }
    return String(Character(scalar)).lowercased()
  }

  // MARK: - Costs

  private static let similarConsonants: Set<[Unicode.Scalar]> = {
    let pairs: [(Unicode.Scalar, Unicode.Scalar)] = [
      ("p", "b"), ("t", "d"), ("k", "g"), ("f", "v"), ("s", "z"), ("θ", "ð"), ("ʃ", "ʒ"),
      ("θ", "f"), ("ð", "d"), ("θ", "t"), ("m", "n"), ("n", "ŋ"),
    ]
    return Set(pairs.flatMap { [[$0.0, $0.1], [$0.1, $0.0]] })
  }()

  private static func indelCost(_ unit: Unicode.Scalar) -> Double {
    unit == "ə" ? 0.5 : 1
  }

  private static func substitutionCost(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Double {
    if a == b { return 0 }
    let aIsVowel = vowels.contains(a)
    let bIsVowel = vowels.contains(b)
    if aIsVowel && bIsVowel {
      if a == "ə" || b == "ə" { return 0.25 }
      let pair: Set<Unicode.Scalar> = [a, b]
      if pair == ["a", "o"] || pair == ["a", "æ"] { return 0.25 }
      return 0.5
    }
    if !aIsVowel && !bIsVowel && similarConsonants.contains([a, b]) { return 0.5 }
    return 1
  }
}
