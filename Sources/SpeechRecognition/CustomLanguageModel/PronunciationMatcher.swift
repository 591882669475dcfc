import Foundation

/// Rewrites transcript words that sound like a custom pronunciation as that pronunciation's
/// grapheme, so a term is written the way the user spelled it.
///
/// For each position it tries runs of 1 to ``maximumRunLength`` words, turns them into phonemes with
/// espeak-ng (word by word), and compares them with each pronunciation's IPA after
/// ``PhonemeSequence`` normalisation. A run is rewritten when its weighted edit distance is within
/// ``PhonemeSequence/allowedDistance(forLength:)`` of the pronunciation, which is exact for short
/// pronunciations; the closest (then the longest) run wins. Punctuation around the run is kept and
/// the merged word spans the run's time range.
///
/// ```swift
/// let matcher = PronunciationMatcher(model: model)
/// let result = try await matcher.apply(to: "Deploy it on cooper netties.")
/// result.text  // "Deploy it on Kubernetes."
/// ```
public struct PronunciationMatcher: Sendable {
  /// One transcript word, with its time range when known.
  public struct Word: Sendable, Hashable {
    /// The word as transcribed, punctuation included.
    public var text: String
    /// Where the word starts in the audio, in seconds.
    public var startTime: TimeInterval?
    /// Where the word ends in the audio, in seconds.
    public var endTime: TimeInterval?

    /// Creates a word.
    public init(_ text: String, startTime: TimeInterval? = nil, endTime: TimeInterval? = nil) {
      self.text = text
      self.startTime = startTime
      self.endTime = endTime
    }
  }

  /// One rewrite the matcher made.
  public struct Replacement: Sendable, Hashable {
    /// The input words that were replaced.
    public let inputRange: Range<Int>
    /// The position of the replacing word in the output.
    public let outputIndex: Int
    /// The replaced words, joined by spaces.
    public let original: String
    /// The grapheme written instead.
    public let grapheme: String
    /// The phonetic distance of the match (0 is an exact match after normalisation).
    public let distance: Double
  }

  /// The rewritten words and what was rewritten.
  public struct Result: Sendable, Hashable {
    /// The words after rewriting.
    public let words: [Word]
    /// The rewrites, in order.
    public let replacements: [Replacement]

    /// The words joined by single spaces.
    public var text: String { words.map(\.text).joined(separator: " ") }
  }

  private struct Target: Sendable {
    let grapheme: String
    let graphemeKey: [String]
    let phonemes: PhonemeSequence
    let allowed: Double
  }

  /// The pronunciations matched, with their IPA.
  public let pronunciations: [SpeechLanguageModel.Pronunciation]
  /// The language espeak-ng reads the transcript in.
  public let locale: Locale
  /// The longest run of transcript words that may become one grapheme.
  public let maximumRunLength: Int

  private let targets: [Target]
  private let phonemizer: Phonemizer

  /// A matcher for `pronunciations`, reading transcripts as `locale`.
  public init(
    pronunciations: [SpeechLanguageModel.Pronunciation], locale: Locale, maximumRunLength: Int = 3,
    phonemizer: Phonemizer = .shared
  ) {
    self.pronunciations = pronunciations
    self.locale = locale
    self.maximumRunLength = max(1, maximumRunLength)
    self.phonemizer = phonemizer
    targets = pronunciations.flatMap { pronunciation in
      pronunciation.ipa.map { ipa in
        let phonemes = PhonemeSequence(ipa: ipa)
        return Target(
          grapheme: pronunciation.grapheme, graphemeKey: CommandGrammar.words(in: pronunciation.grapheme),
          phonemes: phonemes, allowed: PhonemeSequence.allowedDistance(forLength: phonemes.count))
      }
    }.filter { $0.phonemes.count > 0 }
  }

  /// A matcher for the custom pronunciations of `model`.
  public init(model: SpeechLanguageModel, phonemizer: Phonemizer = .shared) {
    self.init(pronunciations: model.vocabulary.pronunciations, locale: model.locale, phonemizer: phonemizer)
  }

  /// Rewrites `text`, split into words at whitespace.
  public func apply(to text: String) async throws -> Result {
    try await apply(to: text.split(whereSeparator: \.isWhitespace).map { Word(String($0)) })
  }

  /// Rewrites runs of `words` that sound like a pronunciation as its grapheme.
  ///
  /// Throws ``CustomLanguageModelError/phonemizerUnavailable(reason:)`` when espeak-ng cannot run.
  public func apply(to words: [Word]) async throws -> Result {
    guard !targets.isEmpty, !words.isEmpty else { return Result(words: words, replacements: []) }
    let cores = words.map { Self.core(of: $0.text) }
    let spoken = cores.map(\.text)
    let distinct = Array(Set(spoken.filter { !$0.isEmpty }))
    let ipa = try await phonemizer.ipa(forWords: distinct, locale: locale)
    var phonemes: [String: String] = [:]
    for (word, value) in zip(distinct, ipa) { phonemes[word] = value }

    var output: [Word] = []
    var replacements: [Replacement] = []
    var index = 0
    while index < words.count {
      if let match = bestMatch(at: index, spoken: spoken, phonemes: phonemes) {
        let run = index..<index + match.length
        if let target = match.target {
          let first = cores[run.lowerBound]
          let last = cores[run.upperBound - 1]
          output.append(
            Word(
              first.leading + target.grapheme + last.trailing, startTime: words[run.lowerBound].startTime,
              endTime: words[run.upperBound - 1].endTime))
          replacements.append(
            Replacement(
              inputRange: run, outputIndex: output.count - 1,
              original: words[run].map(\.text).joined(separator: " "), grapheme: target.grapheme,
              distance: match.distance))
        } else {
          output += words[run]
        }
        index = run.upperBound
      } else {
        output.append(words[index])
        index += 1
      }
    }
    return Result(words: output, replacements: replacements)
  }

  /// The best run starting at `index`: a target to write (closest, then longest), or a run that
  /// already is a grapheme (`target` nil, kept as is), or nil.
  private func bestMatch(
    at index: Int, spoken: [String], phonemes: [String: String]
  ) -> (length: Int, target: Target?, distance: Double)? {
    var best: (length: Int, target: Target?, distance: Double)?
    var ipa = ""
    var key: [String] = []
    for length in 1...min(maximumRunLength, spoken.count - index) {
      let word = spoken[index + length - 1]
      guard !word.isEmpty, let wordIPA = phonemes[word] else { break }
      ipa += wordIPA
      key += CommandGrammar.words(in: word)
      if targets.contains(where: { $0.graphemeKey == key }) {
        return (length, nil, 0)
      }
      let run = PhonemeSequence(ipa: ipa)
      for target in targets {
        // Every edit costs at least 0.5, so a length gap alone can rule a target out.
        guard Double(abs(run.count - target.phonemes.count)) * 0.5 <= target.allowed else { continue }
        let distance = run.distance(to: target.phonemes)
        guard distance <= target.allowed else { continue }
        if let current = best, current.distance < distance || (current.distance == distance && current.length >= length)
        {
          continue
        }
        best = (length, target, distance)
      }
    }
    return best
  }

  /// A word without its leading and trailing punctuation, and that punctuation.
  private static func core(of text: String) -> (leading: String, text: String, trailing: String) {
    let isWordCharacter: (Character) -> Bool = { $0.isLetter || $0.isNumber }
    guard let first = text.firstIndex(where: isWordCharacter), let last = text.lastIndex(where: isWordCharacter)
    else {
      return (text, "", "")
    }
    return (String(text[..<first]), String(text[first...last]), String(text[text.index(after: last)...]))
  }
}
