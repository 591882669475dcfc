import Foundation
import TestSupport
import Testing

@testable import SpeechRecognition

/// The seed 003 model: two templates with classes, a custom pronunciation and a plain phrase.
func seedLanguageModelData() -> CustomLanguageModelData {
  CustomLanguageModelData(
    locale: Locale(identifier: "en_US"), identifier: "site.modista.speechRecognizer.SpeechRecognition", version: "1.0"
  ) {
    CustomLanguageModelData.PhraseCountsFromTemplates(classes: ["color": ["red", "blue", "green", "yellow"]]) {
      CustomLanguageModelData.TemplatePhraseCountGenerator.Template("Set background to <color>", count: 10_000)
    }
    CustomLanguageModelData.PhraseCountsFromTemplates(classes: ["element": ["fire", "sea"]]) {
      CustomLanguageModelData.TemplatePhraseCountGenerator.Template("I am <element>", count: 10_000)
    }
    CustomLanguageModelData.CustomPronunciation(grapheme: "Aw Aw R", phonemes: ["aU aU @r"])
    CustomLanguageModelData.PhraseCount(phrase: "See the sea", count: 100)
  }
}

/// The eight phrases the seed model stands for.
let seedPhrases: Set<String> = [
  "Set background to red", "Set background to blue", "Set background to green", "Set background to yellow",
  "I am fire", "I am sea", "See the sea",
]

private func counts(_ phraseCounts: [CustomLanguageModelData.PhraseCount]) -> [String: Int] {
  Dictionary(phraseCounts.map { ($0.phrase, $0.count) }, uniquingKeysWith: +)
}

private func data(
  classes: [String: [String]], _ templates: [(String, Int)]
) -> CustomLanguageModelData {
  CustomLanguageModelData(locale: Locale(identifier: "en_US"), identifier: "test.templates", version: "1") {
    CustomLanguageModelData.PhraseCountsFromTemplates(classes: classes) {
      for (body, count) in templates {
        CustomLanguageModelData.TemplatePhraseCountGenerator.Template(body, count: count)
      }
    }
  }
}

/// Expects `body` to throw exactly `expected`.
private func expectError(
  _ expected: CustomLanguageModelError, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async throws -> Void
) async {
  do {
    try await body()
    Issue.record("expected \(expected), but nothing was thrown", sourceLocation: sourceLocation)
  } catch let error as CustomLanguageModelError {
    #expect(error == expected, sourceLocation: sourceLocation)
  } catch {
    Issue.record("expected \(expected), got \(error)", sourceLocation: sourceLocation)
  }
}

@Suite("Custom language model data: templates")
struct CustomLanguageModelTemplateTests {
  @Test("the seed's templates split their counts across every class value")
  func seedExpansion() throws {
    let expanded = counts(try seedLanguageModelData().expandedPhraseCounts())
    #expect(Set(expanded.keys) == seedPhrases)
    for color in ["red", "blue", "green", "yellow"] {
      #expect(expanded["Set background to \(color)"] == 2_500)
    }
    #expect(expanded["I am fire"] == 5_000)
    #expect(expanded["I am sea"] == 5_000)
    #expect(expanded["See the sea"] == 100)
  }

  @Test("a count that does not divide evenly gives the remainder to the first expansions")
  func remainder() throws {
    let expanded = try data(classes: ["direction": ["left", "right", "up"]], [("Go <direction>", 10)])
      .expandedPhraseCounts()
    #expect(expanded.map(\.phrase) == ["Go left", "Go right", "Go up"])
    #expect(expanded.map(\.count) == [4, 3, 3])
  }

  @Test("a count smaller than the number of expansions still keeps every expansion")
  func smallCount() throws {
    let expanded = try data(classes: ["color": ["red", "blue", "green", "yellow"]], [("Paint <color>", 2)])
      .expandedPhraseCounts()
    #expect(expanded.count == 4)
    #expect(expanded.allSatisfy { $0.count == 1 })
  }

  @Test("several slots expand to every combination")
  func multipleSlots() throws {
    let expanded = counts(
      try data(
        classes: ["size": ["small", "big"], "color": ["red", "blue", "green"]],
        [("Make it <size> and <color>", 12)]
      ).expandedPhraseCounts())
    #expect(expanded.count == 6)
    for size in ["small", "big"] {
      for color in ["red", "blue", "green"] {
        #expect(expanded["Make it \(size) and \(color)"] == 2)
      }
    }
  }

  @Test("slots inside class values expand too")
  func nestedSlots() throws {
    let expanded = counts(
      try data(
        classes: ["shade": ["light <color>", "dark <color>", "plain"], "color": ["red", "blue"]],
        [("Paint it <shade>", 10)]
      ).expandedPhraseCounts())
    #expect(
      Set(expanded.keys) == [
        "Paint it light red", "Paint it light blue", "Paint it dark red", "Paint it dark blue", "Paint it plain",
      ])
    #expect(expanded.values.allSatisfy { $0 == 2 })
  }

  @Test("the result builders accept if, else and for")
  func builderControlFlow() throws {
    let includeFire = false
    let data = CustomLanguageModelData(locale: Locale(identifier: "en_US"), identifier: "flow", version: "1") {
      for number in 1...3 {
        CustomLanguageModelData.PhraseCount(phrase: "Call \(number)", count: number)
      }
      if includeFire {
        CustomLanguageModelData.PhraseCount(phrase: "Fire", count: 1)
      } else {
        CustomLanguageModelData.PhraseCount(phrase: "Water", count: 1)
      }
      CustomLanguageModelData.PhraseCountsFromTemplates(classes: ["x": ["a", "b"]]) {
        if !includeFire {
          CustomLanguageModelData.TemplatePhraseCountGenerator.Template("Pick <x>", count: 2)
        }
      }
    }
    #expect(data.phraseCounts.map(\.phrase) == ["Call 1", "Call 2", "Call 3", "Water"])
    #expect(data.templates.map(\.body) == ["Pick <x>"])
    #expect(try data.expandedPhraseCounts().count == 6)
  }

  @Test("a template generator used directly expands like the builder form")
  func generatorDirectly() throws {
    let generator = CustomLanguageModelData.TemplatePhraseCountGenerator()
    generator.define(className: "element", values: ["fire", "sea"])
    generator.insert(template: "I am <element>", count: 10)
    #expect(try generator.phraseCounts().map(\.phrase) == ["I am fire", "I am sea"])
    let data = CustomLanguageModelData(locale: Locale(identifier: "en_US"), identifier: "direct", version: "1")
    data.insert(phraseCountGenerator: generator)
    #expect(try data.expandedPhraseCounts().map(\.count) == [5, 5])
  }

  @Test("an undefined class is an error that names the class and the template")
  func undefinedClass() async throws {
    let data = data(classes: ["color": ["red"]], [("Set background to <colour>", 10)])
    let expected = CustomLanguageModelError.undefinedTemplateClassName(
      className: "colour", template: "Set background to <colour>")
    await expectError(expected) { _ = try data.expandedPhraseCounts() }
    let folder = Fixtures.temporaryFolder("clm-undefined")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("model.json")
    await expectError(expected) { try await data.export(to: file) }
    #expect(!FileManager.default.fileExists(atPath: file.path))
    let message = expected.errorDescription ?? ""
    #expect(message.contains("<colour>") && message.contains("\"Set background to <colour>\""))
  }

  @Test("an undefined class nested in a class value is an error too")
  func undefinedNestedClass() async {
    let data = data(classes: ["shade": ["light <hue>"]], [("Paint it <shade>", 10)])
    await expectError(.undefinedTemplateClassName(className: "hue", template: "Paint it <shade>")) {
      _ = try data.expandedPhraseCounts()
    }
  }

  @Test("unclosed slots, empty slots and self-referring classes are malformed templates")
  func malformedTemplates() async {
    await expectError(.malformedTemplate(template: "Set <color", reason: "a '<' is not closed by '>'")) {
      _ = try data(classes: ["color": ["red"]], [("Set <color", 1)]).expandedPhraseCounts()
    }
    await expectError(.malformedTemplate(template: "Set <>", reason: "'<>' names no class")) {
      _ = try data(classes: [:], [("Set <>", 1)]).expandedPhraseCounts()
    }
    await expectError(.malformedTemplate(template: "Go <a>", reason: "the class <a> refers to itself")) {
      _ = try data(classes: ["a": ["x <b>"], "b": ["y <a>"]], [("Go <a>", 1)]).expandedPhraseCounts()
    }
  }
}

@Suite("Custom language model data: export and prepare")
struct CustomLanguageModelExportTests {
  @Test("export writes one versioned JSON file that reads back to the same data")
  func exportReadsBack() async throws {
    let folder = Fixtures.temporaryFolder("clm-export")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("MLData.json")
    let data = seedLanguageModelData()
    try await data.export(to: file)

    let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    #expect(json["format"] as? String == "voicenotes.custom-language-model-data")
    #expect(json["formatVersion"] as? Int == 1)
    #expect(json["locale"] as? String == "en_US")
    #expect(json["identifier"] as? String == "site.modista.speechRecognizer.SpeechRecognition")
    #expect(json["version"] as? String == "1.0")
    #expect((json["templateGroups"] as? [Any])?.count == 2)

    let reread = try CustomLanguageModelData(contentsOf: file)
    #expect(reread.identifier == data.identifier && reread.version == data.version)
    #expect(reread.locale.identifier == "en_US")
    #expect(reread.phraseCounts == data.phraseCounts)
    #expect(reread.templates == data.templates)
    #expect(reread.customPronunciations == data.customPronunciations)
    #expect(counts(try reread.expandedPhraseCounts()) == counts(try data.expandedPhraseCounts()))
  }

  @Test("export then prepare: the model holds every phrase, weight and pronunciation")
  func roundTrip() async throws {
    let folder = Fixtures.temporaryFolder("clm-prepare")
    defer { try? FileManager.default.removeItem(at: folder) }
    let asset = folder.appendingPathComponent("MLData.json")
    try await seedLanguageModelData().export(to: asset)
    let configuration = SpeechLanguageModel.Configuration(
      languageModel: folder.appendingPathComponent("out/LM"), vocabulary: folder.appendingPathComponent("out/Vocab"),
      weight: 1)
    let prepared = try await SpeechLanguageModel.prepareCustomLanguageModel(
      for: asset, clientIdentifier: "site.modista.speechRecognizer.SpeechRecognition", configuration: configuration)
    #expect(FileManager.default.fileExists(atPath: configuration.languageModel.path))
    #expect(FileManager.default.fileExists(atPath: configuration.vocabulary!.path))

    let model = try SpeechLanguageModel(configuration: configuration)
    #expect(model == prepared)

    // The compiled file: versioned, grammar elements as small objects, GBNF text alongside, and the
    // vocabulary in its own file.
    let compiled = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: configuration.languageModel)) as? [String: Any])
    #expect(compiled["format"] as? String == "voicenotes.compiled-language-model")
    #expect(compiled["formatVersion"] as? Int == 1)
    #expect(compiled["gbnf"] as? String == prepared.gbnf)
    #expect(compiled["vocabulary"] == nil)
    let rules = try #require((compiled["grammar"] as? [String: Any])?["rules"] as? [[String: Any]])
    let command = try #require(rules.first { $0["name"] as? String == "command" })
    let firstAlternative = try #require((command["alternatives"] as? [[[String: String]]])?.first)
    #expect(firstAlternative == [["literal": "Set background to "], ["rule": "class-color"]])
    #expect(model.identifier == "site.modista.speechRecognizer.SpeechRecognition" && model.version == "1.0")
    #expect(model.locale.identifier == "en_US")

    // Phrases: all eight, counts summed, probabilities normalised, heaviest first.
    #expect(Set(model.phrases.map(\.text)) == seedPhrases)
    #expect(model.phrases.count == seedPhrases.count)
    let probability = Dictionary(uniqueKeysWithValues: model.phrases.map { ($0.text, $0.probability) })
    #expect(abs(model.phrases.map(\.probability).reduce(0, +) - 1) < 1e-9)
    #expect(abs(probability["See the sea"]! - 100.0 / 20_100) < 1e-12)
    #expect(abs(probability["I am sea"]! - 5_000.0 / 20_100) < 1e-12)
    #expect(abs(probability["Set background to red"]! - 2_500.0 / 20_100) < 1e-12)
    #expect(model.phrases.first?.count == 5_000 && model.phrases.last?.text == "See the sea")

    // Vocabulary: the phrase words and the grapheme, and the pronunciation in IPA.
    let terms = model.vocabulary.terms.map(\.text)
    for word in ["Set", "background", "to", "red", "yellow", "I", "am", "fire", "sea", "See", "Aw Aw R"] {
      #expect(terms.contains(word), "missing term \(word)")
    }
    #expect(model.vocabulary.terms.first?.text == "Aw Aw R")
    #expect(
      model.vocabulary.pronunciations == [
        SpeechLanguageModel.Pronunciation(grapheme: "Aw Aw R", xsampa: ["aU aU @r"], ipa: ["aʊaʊər"])
      ])

    // The prompt gives the grapheme, then the phrases, likeliest and most varied first, within its
    // limit.
    #expect(
      model.prompt(maximumCharacters: 1_000)
        == "Aw Aw R. I am fire. Set background to red. I am sea. Set background to blue. "
        + "Set background to green. Set background to yellow. See the sea.")
    #expect(model.prompt(maximumCharacters: 25) == "Aw Aw R. I am fire.")
  }

  @Test("the GBNF admits each command, with Whisper's space and punctuation, and nothing else")
  func grammarAdmitsExactlyTheCommands() throws {
    let model = try SpeechLanguageModel(compiling: seedLanguageModelData())
    let grammar = try GBNFReader(model.gbnf)
    #expect(grammar.order.first == "root")

    // The whole language of the command rule is exactly the seed phrases.
    #expect(grammar.language(of: "command") == seedPhrases)
    let expectedRoot = Set(
      seedPhrases.flatMap { phrase in
        ["", " "].flatMap { lead in ["", ".", "!", "?"].map { lead + phrase + $0 } }
      })
    #expect(grammar.language(of: "root") == expectedRoot)

    for phrase in seedPhrases {
      #expect(grammar.accepts(phrase))
      #expect(grammar.accepts(" " + phrase + "."))
    }
    for text in [
      "Set background to purple", "I am blue", "Set background to", "See the sea sea", "set background to red",
      " Set background to red..", "Set background to red and blue", "", "I am sea!!", "Set  background to red",
    ] {
      #expect(!grammar.accepts(text), "accepted \"\(text)\"")
    }

    // The structure's own word matcher agrees, without regard to case and punctuation.
    #expect(model.matchesPhrase("set background to Blue!"))
    #expect(model.matchesPhrase(" I am sea."))
    #expect(!model.matchesPhrase("Set background to purple"))
    #expect(!model.matchesPhrase("I am"))
  }

  @Test("classes become rules and literals are escaped in the GBNF")
  func grammarStructure() throws {
    let data = CustomLanguageModelData(locale: Locale(identifier: "en_US"), identifier: "g", version: "1") {
      CustomLanguageModelData.PhraseCountsFromTemplates(
        classes: ["Shade Name": ["light <color>", "dark"], "color": ["red", "blue"]]
      ) {
        CustomLanguageModelData.TemplatePhraseCountGenerator.Template("Paint it <Shade Name>", count: 4)
      }
      CustomLanguageModelData.PhraseCount(phrase: "Say \"hi\" \\ bye", count: 1)
    }
    let grammar = try SpeechLanguageModel(compiling: data).grammar
    let command = try #require(grammar.rule(named: "command"))
    #expect(command.alternatives.first == [.literal("Paint it "), .rule("class-shade-name")])
    #expect(
      grammar.rule(named: "class-shade-name")?.alternatives == [
        [.literal("light "), .rule("class-color")], [.literal("dark")],
      ])
    #expect(grammar.rule(named: "class-color")?.alternatives == [[.literal("red")], [.literal("blue")]])
    #expect(grammar.gbnf.contains(#""Say \"hi\" \\ bye""#))
    let reader = try GBNFReader(grammar.gbnf)
    #expect(
      reader.language(of: "command") == [
        "Paint it light red", "Paint it light blue", "Paint it dark", "Say \"hi\" \\ bye",
      ])
  }

  @Test("an empty model has an empty grammar")
  func emptyGrammar() throws {
    let model = try SpeechLanguageModel(
      compiling: CustomLanguageModelData(locale: Locale(identifier: "en_US"), identifier: "empty", version: "1"))
    #expect(model.grammar.isEmpty && model.gbnf.isEmpty && model.phrases.isEmpty)
    #expect(!model.matchesPhrase("anything"))
  }

  @Test(
    "prepare keeps unchanged outputs unless told to ignore the cache; one file holds everything without a vocabulary URL"
  )
  func cacheAndSingleFile() async throws {
    let folder = Fixtures.temporaryFolder("clm-cache")
    defer { try? FileManager.default.removeItem(at: folder) }
    let asset = folder.appendingPathComponent("MLData.json")
    try await seedLanguageModelData().export(to: asset)
    let configuration = SpeechLanguageModel.Configuration(languageModel: folder.appendingPathComponent("LM"))
    func fileNumber() throws -> Int {
      let attributes = try FileManager.default.attributesOfItem(atPath: configuration.languageModel.path)
      return (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? -1
    }
    let first = try await SpeechLanguageModel.prepareCustomLanguageModel(for: asset, configuration: configuration)
    let written = try fileNumber()
    try await SpeechLanguageModel.prepareCustomLanguageModel(for: asset, configuration: configuration)
    #expect(try fileNumber() == written, "an up-to-date model was rewritten")
    try await SpeechLanguageModel.prepareCustomLanguageModel(
      for: asset, configuration: configuration, ignoresCache: true)
    #expect(try fileNumber() != written, "ignoresCache did not rewrite the model")

    let loaded = try SpeechLanguageModel(configuration: configuration)
    #expect(loaded == first)
    #expect(loaded.vocabulary.pronunciations.count == 1)

    // Apple's completion-handler form: nil once prepared, the error for a file that is not there.
    let other = SpeechLanguageModel.Configuration(languageModel: folder.appendingPathComponent("other.lm"))
    let prepared: (any Error)? = await withCheckedContinuation { done in
      SpeechLanguageModel.prepareCustomLanguageModel(
        for: asset, clientIdentifier: "com.example.app", configuration: other, ignoresCache: false
      ) { error in done.resume(returning: error) }
    }
    #expect(prepared == nil)
    #expect(try SpeechLanguageModel(configuration: other) == first)
    let missing: (any Error)? = await withCheckedContinuation { done in
      SpeechLanguageModel.prepareCustomLanguageModel(
        for: folder.appendingPathComponent("gone.json"), configuration: other
      ) { error in done.resume(returning: error) }
    }
    #expect(missing is CustomLanguageModelError, "\(String(describing: missing))")
  }

  @Test("a vocabulary file prepared from other data is refused")
  func mismatchedVocabulary() async throws {
    let folder = Fixtures.temporaryFolder("clm-mismatch")
    defer { try? FileManager.default.removeItem(at: folder) }
    let seedAsset = folder.appendingPathComponent("seed.json")
    let otherAsset = folder.appendingPathComponent("other.json")
    try await seedLanguageModelData().export(to: seedAsset)
    try await data(classes: ["x": ["a"]], [("Pick <x>", 1)]).export(to: otherAsset)
    let seed = SpeechLanguageModel.Configuration(
      languageModel: folder.appendingPathComponent("seed.lm"), vocabulary: folder.appendingPathComponent("seed.vocab"))
    let other = SpeechLanguageModel.Configuration(
      languageModel: folder.appendingPathComponent("other.lm"), vocabulary: folder.appendingPathComponent("other.vocab")
    )
    try await SpeechLanguageModel.prepareCustomLanguageModel(for: seedAsset, configuration: seed)
    try await SpeechLanguageModel.prepareCustomLanguageModel(for: otherAsset, configuration: other)
    let mixed = SpeechLanguageModel.Configuration(languageModel: seed.languageModel, vocabulary: other.vocabulary)
    await expectError(
      .malformedSupplementalModel(file: other.vocabulary, reason: "it was prepared from other data than seed.lm")
    ) {
      _ = try SpeechLanguageModel(configuration: mixed)
    }
  }

  @Test("the weight goes from bias to restrict")
  func weightAndMode() {
    let url = URL(fileURLWithPath: "/tmp/lm")
    #expect(SpeechLanguageModel.Configuration(languageModel: url).mode == .bias(strength: 0.5))
    #expect(
      SpeechLanguageModel.Configuration(languageModel: url, vocabulary: nil, weight: 0.2).mode == .bias(strength: 0.2))
    #expect(SpeechLanguageModel.Configuration(languageModel: url, vocabulary: nil, weight: 1).mode == .restrict)
    #expect(SpeechLanguageModel.Configuration(languageModel: url, vocabulary: nil, weight: 7).weight == 1)
    #expect(
      SpeechLanguageModel.Configuration(languageModel: url, vocabulary: nil, weight: -1).mode == .bias(strength: 0))
  }
}

/// A generator of the kind an app writes: phrases that come from its own data, one at a time.
final class ContactPhrases: CustomLanguageModelData.PhraseCountGenerator {
  let names = ["Anneliese Hoffmann", "Brianna Okafor", "Tobias Lindqvist"]

  final class NameIterator: Iterator {
    var remaining: [String]
    init(names: [String]) {
      remaining = names
      super.init()
    }
    override func next() async throws -> CustomLanguageModelData.PhraseCount? {
      guard !remaining.isEmpty else { return nil }
      return CustomLanguageModelData.PhraseCount(phrase: "Meeting with \(remaining.removeFirst())", count: 10)
    }
  }

  override func makeAsyncIterator() -> Iterator { NameIterator(names: names) }
}

/// A subclass that forgot to give its phrases.
final class ForgetfulPhrases: CustomLanguageModelData.PhraseCountGenerator {}

@Suite("Custom language model data: phrase count generators", .serialized)
struct CustomLanguageModelGeneratorTests {
  @Test("a generator subclass's phrases are read on export, after the direct phrases")
  func subclassIsReadOnExport() async throws {
    let data = CustomLanguageModelData(locale: Locale(identifier: "en_US"), identifier: "test.contacts", version: "1") {
      CustomLanguageModelData.PhraseCount(phrase: "Call home", count: 5)
      ContactPhrases()
    }
    data.insert(phraseCountGenerator: ContactPhrases())
    let folder = Fixtures.temporaryFolder("clm-generator")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("contacts.bin")
    try await data.export(to: file)
    let meetings = ["Anneliese Hoffmann", "Brianna Okafor", "Tobias Lindqvist"].map { "Meeting with \($0)" }
    let exported = try CustomLanguageModelData(contentsOf: file)
    #expect(exported.phraseCounts.map(\.phrase) == ["Call home"] + meetings + meetings)
    #expect(exported.phraseCounts.dropFirst().allSatisfy { $0.count == 10 })
    // The prepared model has them; synchronous reads of the data in memory cannot, and say so.
    let model = try SpeechLanguageModel(compiling: exported)
    #expect(Set(meetings).isSubset(of: Set(model.phrases.map(\.text))), "\(model.phrases.map(\.text))")
    await expectError(.asynchronousPhraseCountGenerator(type: "ContactPhrases")) {
      _ = try data.expandedPhraseCounts()
    }
    await expectError(.asynchronousPhraseCountGenerator(type: "ContactPhrases")) {
      _ = try SpeechLanguageModel(compiling: data)
    }
  }

  @Test("a template generator is an async sequence of its expansions; the base class has none")
  func templateIterationAndAbstractBase() async throws {
    let generator = CustomLanguageModelData.TemplatePhraseCountGenerator()
    generator.define(className: "element", values: ["fire", "sea"])
    generator.insert(template: "I am <element>", count: 10)
    var phrases: [CustomLanguageModelData.PhraseCount] = []
    for try await phrase in generator { phrases.append(phrase) }
    #expect(phrases == (try generator.phraseCounts()))
    #expect(phrases.map(\.phrase) == ["I am fire", "I am sea"])
    let undefined = CustomLanguageModelData.TemplatePhraseCountGenerator.Iterator(
      templates: [.init("Set background to <colour>", count: 1)], templateClasses: [:])
    await expectError(.undefinedTemplateClassName(className: "colour", template: "Set background to <colour>")) {
      _ = try await undefined.next()
    }

    // Equal and hashed by their templates; encoded and decoded with them.
    let copy = CustomLanguageModelData.TemplatePhraseCountGenerator()
    copy.define(className: "element", values: ["fire", "sea"])
    copy.insert(template: "I am <element>", count: 10)
    #expect(generator == copy && generator.hashValue == copy.hashValue)
    #expect(ContactPhrases() != ContactPhrases())
    let decoded = try JSONDecoder().decode(
      CustomLanguageModelData.TemplatePhraseCountGenerator.self, from: try JSONEncoder().encode(generator))
    #expect(decoded == generator && decoded.templates == generator.templates)

    let folder = Fixtures.temporaryFolder("clm-abstract")
    defer { try? FileManager.default.removeItem(at: folder) }
    let abstracts: [(CustomLanguageModelData.PhraseCountGenerator, String)] = [
      (CustomLanguageModelData.PhraseCountGenerator(), "PhraseCountGenerator"),
      (ForgetfulPhrases(), "ForgetfulPhrases"),
    ]
    for (abstract, type) in abstracts {
      let data = CustomLanguageModelData(locale: Locale(identifier: "en_US"), identifier: "test.abstract", version: "1")
      data.insert(phraseCountGenerator: abstract)
      let file = folder.appendingPathComponent("\(type).bin")
      await expectError(.abstractPhraseCountGenerator(type: type, method: "makeAsyncIterator()")) {
        try await data.export(to: file)
      }
      #expect(!FileManager.default.fileExists(atPath: file.path))
    }
    let message = CustomLanguageModelError.abstractPhraseCountGenerator(type: "X", method: "next()").errorDescription
    #expect(message?.contains("override") == true)
  }

  @Test("a name from a generator steers the real engine: spelled right with the prepared model")
  func generatorSteersRecognition() async throws {
    let folder = Fixtures.temporaryFolder("clm-generator-recognition")
    defer { try? FileManager.default.removeItem(at: folder) }
    let data = CustomLanguageModelData(locale: Locale(identifier: "en_US"), identifier: "test.contacts", version: "1") {
      ContactPhrases()
    }
    let exported = folder.appendingPathComponent("contacts.bin")
    try await data.export(to: exported)
    let model = try SpeechLanguageModel(compiling: try CustomLanguageModelData(contentsOf: exported))
    let sentence = "Meeting with Anneliese Hoffmann at noon."
    let file = try speak(sentence, voice: "en-us", speed: 175, in: folder)
    let without = try await recognize(file)
    let with = try await recognize(
      file, model: model, mode: .bias(strength: SpeechLanguageModel.Configuration.defaultWeight))
    #expect(!without.text.contains("Anneliese Hoffmann"), "base now spells the name unaided: \(without.text)")
    #expect(with.text.contains("Anneliese Hoffmann"), "\(with.text)")
  }
}

@Suite("Custom language model data: bad files")
struct CustomLanguageModelFileErrorTests {
  private func prepare(_ text: String, name: String = "bad.json") async throws {
    let folder = Fixtures.temporaryFolder("clm-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let asset = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: asset)
    defer { #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("LM").path)) }
    try await SpeechLanguageModel.prepareCustomLanguageModel(
      for: asset, configuration: .init(languageModel: folder.appendingPathComponent("LM")))
  }

  private func seedJSON(_ change: (inout [String: Any]) -> Void) async throws -> String {
    let folder = Fixtures.temporaryFolder("clm-json")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("seed.json")
    try await seedLanguageModelData().export(to: file)
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    change(&object)
    return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
  }

  /// Runs `body` and returns the CustomLanguageModelError it throws.
  private func caught(_ body: () async throws -> Void) async -> CustomLanguageModelError? {
    do {
      try await body()
      return nil
    } catch {
      return error as? CustomLanguageModelError
    }
  }

  @Test("a file that is not JSON is malformed, and the message names the file")
  func notJSON() async throws {
    let error = await caught { try await prepare("this is not json", name: "garbage.bin") }
    guard case .malformedSupplementalModel(let file, let reason) = error else {
      Issue.record("expected malformedSupplementalModel, got \(String(describing: error))")
      return
    }
    #expect(file?.lastPathComponent == "garbage.bin")
    #expect(reason == "it is not JSON")
    #expect(error?.errorDescription?.contains("garbage.bin") == true)
  }

  @Test("a missing field, a wrong type or a foreign format is malformed and named")
  func missingField() async throws {
    let noLocale = try await seedJSON { $0["locale"] = nil }
    let error = await caught { try await prepare(noLocale) }
    guard case .malformedSupplementalModel(_, let reason) = error else {
      Issue.record("expected malformedSupplementalModel, got \(String(describing: error))")
      return
    }
    #expect(reason == "the field \"locale\" is missing")

    let badCount = try await seedJSON { $0["phraseCounts"] = [["phrase": "See the sea", "count": "many"]] }
    guard case .malformedSupplementalModel(_, let countReason) = await caught({ try await prepare(badCount) }) else {
      Issue.record("a string count was accepted")
      return
    }
    #expect(countReason.contains("phraseCounts[0].count"))

    let negative = try await seedJSON { $0["phraseCounts"] = [["phrase": "See the sea", "count": -5]] }
    guard case .malformedSupplementalModel(_, let negativeReason) = await caught({ try await prepare(negative) }) else {
      Issue.record("a negative count was accepted")
      return
    }
    #expect(negativeReason.contains("negative"))

    let foreign = try await seedJSON { $0["format"] = "something-else" }
    guard case .malformedSupplementalModel(_, let formatReason) = await caught({ try await prepare(foreign) }) else {
      Issue.record("a foreign format was accepted")
      return
    }
    #expect(formatReason.contains("voicenotes.custom-language-model-data"))
  }

  @Test("a file from a newer format version says which version is supported")
  func futureVersion() async throws {
    let future = try await seedJSON { $0["formatVersion"] = 2 }
    let error = await caught { try await prepare(future, name: "future.json") }
    guard case .unsupportedFormatVersion(let file, let found, let supported) = error else {
      Issue.record("expected unsupportedFormatVersion, got \(String(describing: error))")
      return
    }
    #expect(file.lastPathComponent == "future.json" && found == 2 && supported == 1)
    #expect(error?.errorDescription?.contains("reads only version 1") == true)
  }

  @Test("a compiled model from a newer format version is refused when loaded")
  func futureCompiledVersion() async throws {
    let folder = Fixtures.temporaryFolder("clm-compiled-future")
    defer { try? FileManager.default.removeItem(at: folder) }
    let asset = folder.appendingPathComponent("MLData.json")
    try await seedLanguageModelData().export(to: asset)
    let configuration = SpeechLanguageModel.Configuration(languageModel: folder.appendingPathComponent("LM"))
    try await SpeechLanguageModel.prepareCustomLanguageModel(for: asset, configuration: configuration)
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: configuration.languageModel)) as? [String: Any])
    object["formatVersion"] = 3
    try JSONSerialization.data(withJSONObject: object).write(to: configuration.languageModel)
    let error = await caught { _ = try SpeechLanguageModel(configuration: configuration) }
    #expect(error == .unsupportedFormatVersion(file: configuration.languageModel, found: 3, supported: 1))
  }

  @Test("an undefined class inside a file is reported when it is prepared")
  func undefinedClassInFile() async throws {
    let edited = try await seedJSON { object in
      object["templateGroups"] = [
        ["classes": ["color": ["red"]], "templates": [["body": "Set background to <shade>", "count": 5]]]
      ]
    }
    let error = await caught { try await prepare(edited) }
    #expect(error == .undefinedTemplateClassName(className: "shade", template: "Set background to <shade>"))
  }

  @Test("a missing data file and a missing compiled file are reported, naming the file")
  func missingFiles() async {
    let missing = URL(fileURLWithPath: "/nonexistent/voicenotes/MLData.json")
    let error = await caught {
      try await SpeechLanguageModel.prepareCustomLanguageModel(
        for: missing, configuration: .init(languageModel: URL(fileURLWithPath: "/tmp/unused-lm")))
    }
    guard case .malformedSupplementalModel(let file, _) = error else {
      Issue.record("expected malformedSupplementalModel, got \(String(describing: error))")
      return
    }
    #expect(file == missing)
    let loadError = await caught {
      _ = try SpeechLanguageModel(configuration: .init(languageModel: URL(fileURLWithPath: "/nonexistent/LM")))
    }
    guard case .malformedSupplementalModel(let lmFile, let reason) = loadError else {
      Issue.record("expected malformedSupplementalModel, got \(String(describing: loadError))")
      return
    }
    #expect(lmFile?.path == "/nonexistent/LM" && reason.contains("prepare the model first"))
  }
}
