import Foundation

/// Converts between X-SAMPA (the ASCII phonetic alphabet custom pronunciations are written in) and
/// the IPA (what espeak-ng produces), so the two can be compared.
///
/// ```swift
/// try XSAMPA.ipa(for: "aU aU @r", grapheme: "Aw Aw R")  // "aʊaʊər"
/// XSAMPA.xsampa(forIPA: "sˈiː")                         // "s\"i:"
/// ```
///
/// The table covers X-SAMPA's letters, the backslash and backtick variants, implosives, stress,
/// length and the common diacritics. Symbols are separated by spaces or run together; a run is
/// read longest symbol first (`"tS"` is `t` then `S`, `"r\\`"` is one symbol).
public enum XSAMPA {
  /// X-SAMPA symbol and IPA, in preference order for the reverse direction.
  private static let table: [(xsampa: String, ipa: String)] = {
    var pairs: [(String, String)] = []
    for letter in "abcdefhijklmnopqrstuvwxyz" {
      pairs.append((String(letter), String(letter)))
    }
    pairs.append(("g", "\u{261}"))
    pairs += [
      ("A", "ɑ"), ("B", "β"), ("C", "ç"), ("D", "ð"), ("E", "ɛ"), ("F", "ɱ"), ("G", "ɣ"), ("H", "ɥ"),
      ("I", "ɪ"), ("J", "ɲ"), ("K", "ɬ"), ("L", "ʎ"), ("M", "ɯ"), ("N", "ŋ"), ("O", "ɔ"), ("P", "ʋ"),
      ("Q", "ɒ"), ("R", "ʁ"), ("S", "ʃ"), ("T", "θ"), ("U", "ʊ"), ("V", "ʌ"), ("W", "ʍ"), ("X", "χ"),
      ("Y", "ʏ"), ("Z", "ʒ"), ("{", "æ"), ("}", "ʉ"), ("1", "ɨ"), ("2", "ø"), ("3", "ɜ"), ("4", "ɾ"),
      ("5", "ɫ"), ("6", "ɐ"), ("7", "ɤ"), ("8", "ɵ"), ("9", "œ"), ("&", "ɶ"), ("@", "ə"), ("?", "ʔ"),
      // Backslash variants.
      ("B\\", "ʙ"), ("G\\", "ɢ"), ("H\\", "ʜ"), ("I\\", "ᵻ"), ("J\\", "ɟ"), ("K\\", "ɮ"), ("L\\", "ʟ"),
      ("M\\", "ɰ"), ("N\\", "ɴ"), ("O\\", "ʘ"), ("R\\", "ʀ"), ("U\\", "ᵿ"), ("X\\", "ħ"), ("@\\", "ɘ"),
      ("3\\", "ɞ"), ("?\\", "ʕ"), ("<\\", "ʢ"), (">\\", "ʡ"), ("h\\", "ɦ"), ("j\\", "ʝ"), ("l\\", "ɺ"),
      ("p\\", "ɸ"), ("r\\", "ɹ"), ("s\\", "ɕ"), ("v\\", "ʋ"), ("x\\", "ɧ"), ("z\\", "ʑ"), ("r\\`", "ɻ"),
      ("!\\", "ǃ"), ("|\\", "ǀ"), ("|\\|\\", "ǁ"), ("=\\", "ǂ"),
      // Retroflex and rhotic (backtick) variants.
      ("d`", "ɖ"), ("l`", "ɭ"), ("n`", "ɳ"), ("r`", "ɽ"), ("s`", "ʂ"), ("t`", "ʈ"), ("z`", "ʐ"),
      ("@`", "ɚ"), ("3`", "ɝ"),
      // Implosives.
      ("b_<", "ɓ"), ("d_<", "ɗ"), ("g_<", "ɠ"), ("G\\_<", "ʛ"), ("J\\_<", "ʄ"),
      // Stress, length and breaks.
      ("\"", "ˈ"), ("%", "ˌ"), (":", "ː"), (":\\", "ˑ"), (".", "."), ("||", "‖"), ("|", "|"), ("-", ""),
      // Diacritics.
      ("_h", "ʰ"), ("_w", "ʷ"), ("_j", "ʲ"), ("'", "ʲ"), ("_G", "ˠ"), ("_?\\", "ˤ"), ("_n", "ⁿ"),
      ("_l", "ˡ"), ("_0", "\u{325}"), ("_v", "\u{32C}"), ("=", "\u{329}"), ("_=", "\u{329}"),
      ("~", "\u{303}"), ("_~", "\u{303}"), ("_^", "\u{32F}"), ("_d", "\u{32A}"), ("_t", "\u{324}"),
      ("_k", "\u{330}"), ("_a", "\u{33A}"), ("_m", "\u{33B}"), ("_c", "\u{31C}"), ("_O", "\u{339}"),
      ("_+", "\u{31F}"), ("_-", "\u{320}"), ("_r", "\u{31D}"), ("_o", "\u{31E}"), ("_A", "\u{318}"),
      ("_q", "\u{319}"), ("_x", "\u{33D}"), ("_}", "\u{31A}"), ("_e", "\u{334}"), ("_X", "\u{306}"),
      ("_\"", "\u{308}"), ("_N", "\u{33C}"), ("`", "˞"),
    ]
    return pairs
  }()

  private static let toIPA: [String: String] = Dictionary(table.map { ($0.xsampa, $0.ipa) }) { first, _ in first }

  private static let fromIPA: [String: String] = Dictionary(
    table.filter { !$0.ipa.isEmpty }.map { ($0.ipa, $0.xsampa) }
  ) { first, _ in first }

  private static let longestXSAMPA = table.map(\.xsampa.count).max() ?? 1
  private static let longestIPA = table.map(\.ipa.unicodeScalars.count).max() ?? 1

  /// Every X-SAMPA symbol this port understands, sorted.
  public static let supportedSymbols: [String] = table.map(\.xsampa).sorted()

  /// The symbols of one X-SAMPA pronunciation, longest match first.
  ///
  /// Throws ``CustomLanguageModelError/unsupportedPhoneme(symbol:grapheme:)`` naming the first
  /// symbol that is not X-SAMPA and `grapheme`, the term it belongs to.
  public static func symbols(in xsampa: String, grapheme: String) throws -> [String] {
    var symbols: [String] = []
    for chunk in xsampa.split(whereSeparator: \.isWhitespace) {
      let characters = Array(chunk)
      var index = 0
      while index < characters.count {
        var matched: String?
        for length in stride(from: min(longestXSAMPA, characters.count - index), through: 1, by: -1) {
          let candidate = String(characters[index..<index + length])
          if toIPA[candidate] != nil {
            matched = candidate
            break
          }
        }
        guard let symbol = matched else {
          throw CustomLanguageModelError.unsupportedPhoneme(
            symbol: unknownSymbol(at: index, in: characters, previous: symbols.last), grapheme: grapheme)
        }
        symbols.append(symbol)
        index += symbol.count
      }
    }
    return symbols
  }

  /// The IPA for an X-SAMPA pronunciation of `grapheme`.
  ///
  /// Throws ``CustomLanguageModelError/unsupportedPhoneme(symbol:grapheme:)`` for a symbol that is
  /// not X-SAMPA.
  public static func ipa(for xsampa: String, grapheme: String) throws -> String {
    try symbols(in: xsampa, grapheme: grapheme).map { toIPA[$0] ?? "" }.joined()
  }

  /// The X-SAMPA for IPA text (such as espeak-ng's output); characters with no X-SAMPA form are kept.
  public static func xsampa(forIPA ipa: String) -> String {
    let scalars = Array(ipa.unicodeScalars)
    var result = ""
    var index = 0
    while index < scalars.count {
      var matched = false
      for length in stride(from: min(longestIPA, scalars.count - index), through: 1, by: -1) {
        var candidate = String.UnicodeScalarView()
        candidate.append(contentsOf: scalars[index..<index + length])
        if let symbol = fromIPA[String(candidate)] {
          result += symbol
          index += length
          matched = true
          break
        }
      }
      if !matched {
        result.unicodeScalars.append(scalars[index])
        index += 1
      }
    }
    return result
  }

  /// The text to name in an error for an unknown symbol at `index`: a modifier that does not fit the
  /// symbol before it is named together with that symbol (`Q\`), a `_` with the character after it.
  private static func unknownSymbol(at index: Int, in characters: [Character], previous: String?) -> String {
    let character = characters[index]
    if character == "\\" || character == "`", index > 0, let previous {
      return previous + String(character)
    }
    if character == "_", index + 1 < characters.count {
      return "_" + String(characters[index + 1])
    }
    return String(character)
  }
}
