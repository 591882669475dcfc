import Foundation

/// A custom language model compiled from ``CustomLanguageModelData``: what the recognizer needs to
/// bias toward, or restrict to, the model's phrases, and to spell its custom pronunciations.
///
/// This is Apple's `SFSpeechLanguageModel` without the prefix. Prepare it once from an exported
/// file, then load it where recognition runs:
///
/// ```swift
/// let configuration = SpeechLanguageModel.Configuration(languageModel: lmURL, vocabulary: vocabularyURL)
/// try await SpeechLanguageModel.prepareCustomLanguageModel(
///   for: exportedURL, clientIdentifier: "com.example.commands", configuration: configuration)
/// let model = try SpeechLanguageModel(configuration: configuration)
/// model.grammar.gbnf          // the commands, for restricted decoding
/// model.prompt()              // graphemes and varied likely phrases, for Whisper's prompt
/// model.vocabulary.terms      // the words to bias toward
/// ```
public struct SpeechLanguageModel: Sendable, Hashable {
  /// A phrase of the model with its count and its probability among all phrases.
  public struct Phrase: Sendable, Hashable, Codable {
    /// The phrase as it should be written.
    public let text: String
    /// The summed count of the phrase (direct counts plus template shares).
    public let count: Int
    /// `count` divided by the total of all counts (all phrases equally likely if every count is 0).
    public let probability: Double

    /// Creates a weighted phrase.
    public init(text: String, count: Int, probability: Double) {
      self.text = text
      self.count = count
      self.probability = probability
    }
  }

  /// The words of the model, for prompting and token biasing, and its custom pronunciations.
  public struct Vocabulary: Sendable, Hashable, Codable {
    /// The distinct words of the phrases and the pronunciation graphemes, heaviest first.
    public let terms: [Term]
    /// The custom pronunciations, with their phonemes in IPA.
    public let pronunciations: [Pronunciation]

    /// Creates a vocabulary.
    public init(terms: [Term], pronunciations: [Pronunciation]) {
      self.terms = terms
      self.pronunciations = pronunciations
    }
  }

  /// A word of the model and how much of the model's probability mass uses it.
  public struct Term: Sendable, Hashable, Codable {
    /// The word as first written in the data.
    public let text: String
    /// The summed probability of the phrases that contain the word (1 for a pronunciation's grapheme).
    public let weight: Double

    /// Creates a weighted term.
    public init(text: String, weight: Double) {
      self.text = text
      self.weight = weight
    }
  }

  /// A custom pronunciation with its X-SAMPA converted to IPA.
  public struct Pronunciation: Sendable, Hashable, Codable {
    /// The spelling to write in transcripts.
    public let grapheme: String
    /// The pronunciations as given, in X-SAMPA.
    public let xsampa: [String]
    /// The same pronunciations in IPA, in the same order.
    public let ipa: [String]

    /// Creates a pronunciation.
    public init(grapheme: String, xsampa: [String], ipa: [String]) {
      self.grapheme = grapheme
      self.xsampa = xsampa
      self.ipa = ipa
    }
  }

  /// The language of the model.
  public let locale: Locale
  /// The identifier given to ``CustomLanguageModelData``.
  public let identifier: String
  /// The version given to ``CustomLanguageModelData``.
  public let version: String
  /// Every phrase, direct and expanded from templates, heaviest first; duplicates are summed.
  public let phrases: [Phrase]
  /// The words and the custom pronunciations.
  public let vocabulary: Vocabulary
  /// The phrases and templates as a grammar, for restricted recognition.
  public let grammar: CommandGrammar

  /// Creates a model from its parts (``init(compiling:)`` and ``init(configuration:)`` are the usual ways).
  public init(
    locale: Locale, identifier: String, version: String, phrases: [Phrase], vocabulary: Vocabulary,
    grammar: CommandGrammar
  ) {
    self.locale = locale
    self.identifier = identifier
    self.version = version
    self.phrases = phrases
    self.vocabulary = vocabulary
    self.grammar = grammar
  }

  /// Compiles `data` in memory, without files.
  ///
  /// Throws the errors ``CustomLanguageModelData/export(to:)`` would, and
  /// ``CustomLanguageModelError/asynchronousPhraseCountGenerator(type:)`` for data holding a
  /// ``CustomLanguageModelData/PhraseCountGenerator`` subclass, whose phrases only the
  /// asynchronous export can read (export the data, then compile the exported file's data).
  public init(compiling data: CustomLanguageModelData) throws {
    self = try Self.compile(data.validatedFile())
  }

  /// The grammar in GBNF (see ``CommandGrammar/gbnf``).
  public var gbnf: String { grammar.gbnf }

  /// A prompt that nudges Whisper toward the model's words and spellings: the pronunciation
  /// graphemes, then phrases, as sentences, within `maximumCharacters`.
  ///
  /// Phrases are chosen one at a time by their probability times the number of words they add
  /// that the prompt does not have yet (plus a half), so that a model of many similar phrases
  /// (`"ace of clubs"`, `"ace of diamonds"`, ...) is represented by varied ones rather than by
  /// the first few expansions of one template.
  public func prompt(maximumCharacters: Int = 200) -> String {
    var sentences: [String] = []
    var length = -1
    func add(_ text: String) -> Bool {
      let sentence = text.last.map { ".!?".contains($0) } == true ? text : text + "."
      guard length + 1 + sentence.count <= maximumCharacters, !sentences.contains(sentence) else { return false }
      sentences.append(sentence)
      length += 1 + sentence.count
      return true
    }
    var known: Set<String> = []
    for pronunciation in vocabulary.pronunciations
    where Self.isSpeakable(pronunciation.grapheme) && add(pronunciation.grapheme) {
      known.formUnion(CommandGrammar.words(in: pronunciation.grapheme))
    }
    // The heaviest phrases only: a template may stand for many thousands.
    var remaining = phrases.prefix(2_000).filter { Self.isSpeakable($0.text) }.map { phrase in
      let sentence = phrase.text.last.map { ".!?".contains($0) } == true ? phrase.text : phrase.text + "."
      return (
        text: phrase.text, length: sentence.count, words: CommandGrammar.words(in: phrase.text),
        probability: phrase.probability
      )
    }
    while true {
      let room = maximumCharacters - length - 1
      var best: Int?
      var bestScore = -Double.infinity
      for (index, candidate) in remaining.enumerated() where candidate.length <= room {
        let added = Set(candidate.words.filter { !known.contains($0) }).count
        let score = candidate.probability * (Double(added) + 0.5)
        if score > bestScore {
          best = index
          bestScore = score
        }
      }
      guard let best else { break }
      let chosen = remaining.remove(at: best)
      if add(chosen.text) { known.formUnion(chosen.words) }
    }
    return sentences.joined(separator: " ")
  }

  /// Whether `text` is one of the model's phrases or template expansions, ignoring case and
  /// punctuation (see ``CommandGrammar/matches(_:)``).
  public func matchesPhrase(_ text: String) -> Bool {
    grammar.matches(text)
  }

  /// The longest text, in characters, that is put in Whisper's prompt or biased toward.
  static let maximumSpeakableLength = 100

  /// Whether `text` reads as something a person says, and so may prime or bias Whisper: at most
  /// ``maximumSpeakableLength`` characters and two at least, a letter or digit, and no symbols but
  /// those words and sentences are written with. Anything else (markup, emoji, a lone letter, a
  /// run of thousands of characters) would only make Whisper write it where nobody said it, or
  /// make the steering's set-up slow.
  static func isSpeakable(_ text: String) -> Bool {
    guard text.count <= maximumSpeakableLength else { return false }
    var letters = 0
    for character in text {
      if character.isLetter || character.isNumber {
        letters += 1
      } else if !character.isWhitespace, !speakablePunctuation.contains(character) {
        return false
      }
    }
    return letters >= 1 && text.count >= 2
  }

  private static let speakablePunctuation = Set("'’-.&+#@/,!?:")

  // MARK: - Compiling

  /// Compiles a checked export file.
  static func compile(_ file: CustomLanguageModelFile) throws -> SpeechLanguageModel {
    // Phrases: direct counts, then template expansions; equal phrases are summed.
    var counts: [String: Int] = [:]
    var order: [String] = []
    func add(_ phrase: String, _ count: Int) {
      let text = TemplateBody.normalizedWhitespace(phrase)
      guard !text.isEmpty else { return }
      if counts[text] == nil { order.append(text) }
      counts[text, default: 0] += count
    }
    for phraseCount in file.phraseCounts { add(phraseCount.phrase, phraseCount.count) }
    for group in file.templateGroups {
      let expander = TemplateExpander(classes: group.classes)
      for template in group.templates {
        for phraseCount in try expander.phraseCounts(for: template) { add(phraseCount.phrase, phraseCount.count) }
      }
    }
    let total = order.reduce(0) { $0 + counts[$1]! }
    let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
    let phrases = order.map { text in
      let count = counts[text]!
      let probability = total > 0 ? Double(count) / Double(total) : 1 / Double(order.count)
      return Phrase(text: text, count: count, probability: probability)
    }.sorted { ($0.count, position[$1.text]!) > ($1.count, position[$0.text]!) }

    // Pronunciations, X-SAMPA to IPA.
    let pronunciations = try file.customPronunciations.map { term in
      Pronunciation(
        grapheme: term.grapheme, xsampa: term.phonemes,
        ipa: try term.phonemes.map { try XSAMPA.ipa(for: $0, grapheme: term.grapheme) })
    }

    // Terms: the words of the phrases weighted by probability, then the graphemes.
    var weights: [String: (text: String, weight: Double, first: Int)] = [:]
    for phrase in phrases {
      for word in Self.words(in: phrase.text) {
        let key = word.lowercased()
        let entry = weights[key] ?? (word, 0, weights.count)
        weights[key] = (entry.text, entry.weight + phrase.probability, entry.first)
      }
    }
    for pronunciation in pronunciations {
      let key = pronunciation.grapheme.lowercased()
      let entry = weights[key] ?? (pronunciation.grapheme, 0, weights.count)
      weights[key] = (entry.text, max(entry.weight, 1), entry.first)
    }
    let terms = weights.values.sorted { ($0.weight, $1.first) > ($1.weight, $0.first) }.map {
      Term(text: $0.text, weight: $0.weight)
    }

    let grammar = try CommandGrammar.build(
      phrases: file.phraseCounts.map(\.phrase), templateGroups: file.templateGroups)
    return SpeechLanguageModel(
      locale: Locale(identifier: file.locale), identifier: file.identifier, version: file.version, phrases: phrases,
      vocabulary: Vocabulary(terms: terms, pronunciations: pronunciations), grammar: grammar)
  }

  /// The words of a phrase as written: letters, digits, apostrophes and inner hyphens.
  private static func words(in text: String) -> [String] {
    text.split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "’" || $0 == "-") }
      .map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "-'’")) }
      .filter { !$0.isEmpty }
  }
}
