import Foundation
import Testing

@testable import SpeechRecognition

private let english = Locale(identifier: "en_US")

@Suite("Custom language model: X-SAMPA")
struct CustomLanguageModelXSAMPATests {
  @Test("X-SAMPA becomes IPA, spaced or run together, and IPA goes back")
  func conversion() throws {
    #expect(try XSAMPA.ipa(for: "aU aU @r", grapheme: "Aw Aw R") == "aʊaʊər")
    #expect(try XSAMPA.ipa(for: "aUaU@r", grapheme: "Aw Aw R") == "aʊaʊər")
    #expect(try XSAMPA.ipa(for: "\"tSr\\`{.t@`", grapheme: "x") == "ˈtʃɻæ.tɚ")
    #expect(try XSAMPA.ipa(for: "k u: b @` n E t i: z", grapheme: "Kubernetes") == "kuːbɚnɛtiːz")
    #expect(try XSAMPA.symbols(in: "r\\` r\\ r", grapheme: "x") == ["r\\`", "r\\", "r"])
    #expect(XSAMPA.xsampa(forIPA: "sˈiː") == "s\"i:")
    #expect(XSAMPA.xsampa(forIPA: "ɡɹˈæfɪk") == "gr\\\"{fIk")
    let supported = CustomLanguageModelData.supportedPhonemes(locale: english)
    for symbol in ["@", "@`", "r\\", "S", "T", "{", "a", ":", "\""] {
      #expect(supported.contains(symbol), "missing \(symbol)")
    }
    #expect(!supported.contains("$"))
  }

  @Test("an unknown X-SAMPA symbol is an error naming the symbol and the grapheme")
  func unsupportedSymbol() async throws {
    #expect(throws: CustomLanguageModelError.unsupportedPhoneme(symbol: "$", grapheme: "Zork")) {
      try XSAMPA.ipa(for: "z O r $ k", grapheme: "Zork")
    }
    #expect(throws: CustomLanguageModelError.unsupportedPhoneme(symbol: "Q\\", grapheme: "Qux")) {
      try XSAMPA.ipa(for: "k Q\\ k s", grapheme: "Qux")
    }
    let data = CustomLanguageModelData(locale: english, identifier: "bad.phonemes", version: "1") {
      CustomLanguageModelData.CustomPronunciation(grapheme: "Zork", phonemes: ["z O r k", "z O r $ k"])
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("clm-xsampa-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("zork.json")
    await #expect(throws: CustomLanguageModelError.unsupportedPhoneme(symbol: "$", grapheme: "Zork")) {
      try await data.export(to: file)
    }
    #expect(!FileManager.default.fileExists(atPath: file.path))
    #expect(throws: CustomLanguageModelError.self) { try SpeechLanguageModel(compiling: data) }
    let message = CustomLanguageModelError.unsupportedPhoneme(symbol: "$", grapheme: "Zork").errorDescription ?? ""
    #expect(message.contains("\"$\"") && message.contains("\"Zork\""))
  }
}

@Suite("Custom language model: espeak-ng phonemizer")
struct CustomLanguageModelPhonemizerTests {
  @Test("words that sound alike get the same IPA; different words get different IPA")
  func soundAlikes() async throws {
    let phonemizer = Phonemizer.shared
    let sea = try await phonemizer.ipa(for: "sea", locale: english)
    let see = try await phonemizer.ipa(for: "see", locale: english)
    let blue = try await phonemizer.ipa(for: "blue", locale: english)
    let blew = try await phonemizer.ipa(for: "blew", locale: english)
    let fire = try await phonemizer.ipa(for: "fire", locale: english)
    #expect(!sea.isEmpty && sea == see)
    #expect(!blue.isEmpty && blue == blew)
    #expect(sea != blue && sea != fire && blue != fire)
    #expect(sea.contains("s") && sea.contains("i"))
    #expect(try await phonemizer.xsampa(for: "see", locale: english) == "s\"i:")
    // Words and sentences: one IPA word per word, clauses joined.
    let words = try await phonemizer.ipa(forWords: ["see", "the", "sea"], locale: english)
    #expect(words.count == 3 && words[0] == words[2])
    let sentence = try await phonemizer.ipa(for: "I am fire, I am sea.", locale: english)
    #expect(sentence.split(separator: " ").count >= 4)
  }

  @Test("calls from many tasks at once are serialised and agree")
  func concurrentCalls() async throws {
    let words = ["sea", "see", "blue", "blew", "fire", "background", "yellow", "green"]
    let expected = try await Phonemizer.shared.ipa(forWords: words, locale: english)
    let results = try await withThrowingTaskGroup(of: [String].self) { group in
      for _ in 0..<16 {
        group.addTask { try await Phonemizer.shared.ipa(forWords: words.map { $0 }, locale: english) }
        group.addTask { [try await Phonemizer.shared.ipa(for: words.joined(separator: " "), locale: english)] }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 32)
    for result in results {
      if result.count == 1 {
        #expect(result[0].split(separator: " ").count == words.count)
      } else {
        #expect(result == expected)
      }
    }
  }

  @Test("a language espeak-ng has no voice for is an error")
  func unknownLanguage() async {
    await #expect(throws: CustomLanguageModelError.self) {
      try await Phonemizer.shared.ipa(for: "hello", locale: Locale(identifier: "qq_ZZ"))
    }
    // The phonemizer still works for English afterwards.
    #expect((try? await Phonemizer.shared.ipa(for: "sea", locale: english)) == "sˈiː")
  }

  @Test("normalised phoneme sequences match across espeak-ng and X-SAMPA")
  func normalisation() async throws {
    let our = try await Phonemizer.shared.ipa(for: "our", locale: english)
    let xsampa = try XSAMPA.ipa(for: "aU @`", grapheme: "AWR")
    #expect(PhonemeSequence(ipa: our) == PhonemeSequence(ipa: xsampa))
    #expect(PhonemeSequence(ipa: "sˈiː").description == "si")
    #expect(PhonemeSequence(ipa: "aʊɚɹ").description == "auəɹ")
    #expect(PhonemeSequence(ipa: "kˈuːpɚ").distance(to: PhonemeSequence(ipa: "kuːbɚ")) == 0.5)
    #expect(PhonemeSequence(ipa: "sˈiː").distance(to: PhonemeSequence(ipa: "fˈaɪɚ")) >= 2)
    #expect(PhonemeSequence.allowedDistance(forLength: 4) == 0)
    #expect(PhonemeSequence.allowedDistance(forLength: 5) == 0.5)
    #expect(PhonemeSequence.allowedDistance(forLength: 10) == 1)
  }
}

@Suite("Custom language model: pronunciation matcher")
struct CustomLanguageModelMatcherTests {
  private func model(_ pronunciations: [CustomLanguageModelData.CustomPronunciation]) throws -> SpeechLanguageModel {
    let data = CustomLanguageModelData(locale: english, identifier: "matcher", version: "1")
    for pronunciation in pronunciations { data.insert(term: pronunciation) }
    return try SpeechLanguageModel(compiling: data)
  }

  private var general: [CustomLanguageModelData.CustomPronunciation] {
    [
      .init(grapheme: "Aw Aw R", phonemes: ["aU aU @r"]),
      .init(grapheme: "Kubernetes", phonemes: ["k u: b @` n E t i: z"]),
      .init(grapheme: "Siobhan", phonemes: ["S @ \"v O: n"]),
    ]
  }

  @Test("a spelled-out sound-alike of several words becomes the grapheme, keeping punctuation and times")
  func multiWordRewrite() async throws {
    let matcher = PronunciationMatcher(model: try model(general))
    let words = [
      PronunciationMatcher.Word("Deploy", startTime: 0.0, endTime: 0.4),
      PronunciationMatcher.Word("it", startTime: 0.4, endTime: 0.5),
      PronunciationMatcher.Word("on", startTime: 0.5, endTime: 0.7),
      PronunciationMatcher.Word("Cooper", startTime: 0.7, endTime: 1.1),
      PronunciationMatcher.Word("Nettie's.", startTime: 1.1, endTime: 1.6),
    ]
    let result = try await matcher.apply(to: words)
    #expect(result.text == "Deploy it on Kubernetes.")
    #expect(result.words.last == PronunciationMatcher.Word("Kubernetes.", startTime: 0.7, endTime: 1.6))
    #expect(result.replacements.count == 1)
    let replacement = try #require(result.replacements.first)
    #expect(replacement.inputRange == 3..<5 && replacement.outputIndex == 3)
    #expect(replacement.original == "Cooper Nettie's." && replacement.grapheme == "Kubernetes")
    #expect(replacement.distance > 0 && replacement.distance <= 1)
  }

  @Test("the seed's \"Aw Aw R\" is written as spelled when Whisper hears its sounds")
  func seedPronunciation() async throws {
    let matcher = PronunciationMatcher(model: try SpeechLanguageModel(compiling: seedLanguageModelData()))
    let heard = try await matcher.apply(to: "I said Ao, ao, er!")
    #expect(heard.text == "I said Aw Aw R!")
    // Already spelled right: left as it is, not rewritten.
    let spelled = try await matcher.apply(to: "I said Aw Aw R.")
    #expect(spelled.text == "I said Aw Aw R." && spelled.replacements.isEmpty)
  }

  @Test("a one-word sound-alike becomes a short grapheme, and a name is found by its sound")
  func singleWordRewrite() async throws {
    let awr = PronunciationMatcher(model: try model([.init(grapheme: "AWR", phonemes: ["aU @`"])]))
    #expect(try await awr.apply(to: "Open hour app now").text == "Open AWR app now")
    let names = PronunciationMatcher(model: try model(general))
    #expect(try await names.apply(to: "Ask Shivon about it").text == "Ask Siobhan about it")
  }

  @Test("a general sentence is left unchanged")
  func generalSentenceUnchanged() async throws {
    let matcher = PronunciationMatcher(model: try model(general))
    let sentences = [
      "We walked down to the sea to see how our blue boat was doing, and I am sure the cooper was there.",
      "Our hour is up, so are we, and the shawn of the show was a shiver of cold.",
      "Set background to blue and tell Sean about the kebab at the net cafe.",
    ]
    for sentence in sentences {
      let result = try await matcher.apply(to: sentence)
      #expect(result.text == sentence)
      #expect(result.replacements.isEmpty, "rewrote \(result.replacements.map(\.original)) in \"\(sentence)\"")
    }
  }
}
