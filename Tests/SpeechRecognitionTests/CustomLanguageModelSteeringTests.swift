import Foundation
import Testing

@testable import SpeechRecognition

/// Words as the decoder groups them: each after the first starts with a space, one second apart.
private func words(_ text: String) -> [WhisperSegment.Token] {
  text.split(separator: " ").enumerated().map { index, word in
    WhisperSegment.Token(
      bytes: Array(((index == 0 ? "" : " ") + word).utf8), start: Double(index), end: Double(index) + 0.5,
      probability: 0.9)
  }
}

private func text(_ words: [WhisperSegment.Token]) -> String {
  String(decoding: words.flatMap(\.bytes), as: UTF8.self)
}

/// The logic around the engine that makes recognition follow a custom language model: matching
/// commands, writing them as the model spells them, guarding prompted text, and the grammar and
/// prompt given to Whisper. Recognition itself is in CustomLanguageModelRecognitionTests.
@Suite("Custom language model: steering")
struct CustomLanguageModelSteeringTests {
  let seed = try! SpeechLanguageModel(compiling: seedLanguageModelData())

  @Test("a transcript is matched to the command it says, spelled as the model spells it")
  func commandMatching() throws {
    let grammar = seed.grammar
    #expect(grammar.command(matching: " set background to Blue!") == "Set background to blue")
    #expect(grammar.command(matching: "I AM SEA.") == "I am sea")
    #expect(grammar.command(matching: "I am see") == nil)
    #expect(grammar.command(matching: "Set background to") == nil)
    #expect(grammar.commands(matching: "I am fire. See the sea") == ["I am fire", "See the sea"])
    #expect(grammar.commands(matching: "I am fire. See the") == nil)
    #expect(grammar.commands(matching: "") == nil)
    let cards = try cardLanguageModel().grammar
    #expect(cards.command(matching: "Four Queen of Clubs.") == "four queen of clubs")
    #expect(
      cards.commands(matching: "eight of spades, four of clubs. seven of hearts") == [
        "eight of spades", "four of clubs", "seven of hearts",
      ])
  }

  @Test("matched words take the model's spelling and keep their times; others are left alone")
  func respelling() async throws {
    let steering = LanguageModelSteering(model: seed, mode: .restrict)
    let processed = try await steering.process(words("set Background to BLUE."))
    #expect(text(processed.words) == "Set background to blue.")
    #expect(processed.phrase == "Set background to blue")
    #expect(processed.words.map(\.start) == [0, 1, 2, 3])
    let other = try await steering.process(words("Set back round to blue."))
    #expect(text(other.words) == "Set back round to blue." && other.phrase == nil)
    #expect(LanguageModelSteering.spelled(words("I am see"), as: "I am sea") == nil)
  }

  @Test("a custom pronunciation's sound-alike is written as its grapheme, spanning the words it replaces")
  func pronunciation() async throws {
    let steering = LanguageModelSteering(model: seed, mode: .bias(strength: 0.5))
    let processed = try await steering.process(words("I said Ao, ao, er!"))
    #expect(text(processed.words) == "I said Aw Aw R!")
    let respelled = try #require(processed.words.first { text([$0]).contains("Aw") })
    #expect(respelled.start == 2 && respelled.end == 4.5)
  }

  @Test("prompted text is kept only where it brings in a word of the model")
  func promptGuard() throws {
    let guardian = PromptedTextGuard(model: try vocabularyLanguageModel())
    let plain = [words("Meeting with Anilis Hoffman at noon."), words("He was not an ill-disposed young man.")]
    let prompted = words("Meeting with Anneliese Hoffmann at noon. He was not an ill-sposed young man,")
    let merged = guardian.merge(plain: plain, prompted: prompted)
    #expect(merged.map(text) == ["Meeting with Anneliese Hoffmann at noon.", "He was not an ill-disposed young man."])
    // Identical text, or nothing to compare with, changes nothing.
    #expect(guardian.merge(plain: plain, prompted: plain.flatMap { $0 }) == plain)
    #expect(guardian.merge(plain: [], prompted: prompted).isEmpty)
    // Alignment: runs between matched words.
    let runs = PromptedTextGuard.differences([["a"], ["b"], ["c"]], [["a"], ["x"], ["y"], ["c"]])
    #expect(runs.map(\.plain) == [1..<2] && runs.map(\.prompted) == [1..<3])
  }

  @Test("the prompt represents a model of many similar phrases by varied ones")
  func variedPrompt() throws {
    let prompt = try cardLanguageModel().prompt()
    #expect(prompt.count <= 200)
    let ranks = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen"]
    let present = ranks.filter { prompt.split(separator: " ").contains(Substring($0)) }
    #expect(present.count >= 10, "\(prompt)")
    for suit in ["clubs", "diamonds", "hearts", "spades"] { #expect(prompt.contains(suit)) }
  }

  @Test("the grammar becomes whisper.cpp elements: a sequence of commands, the first letter of a word in either case")
  func grammarElements() throws {
    let grammar = try #require(WhisperGrammar(seed.grammar))
    #expect(grammar.ruleCount == 2 + seed.grammar.rules.count)
    func rule(_ index: Int) -> [(UInt32, UInt32)] { grammar.elements(ofRule: index).map { ($0.type, $0.value) } }
    // whisper.h's element types.
    let (end, alternative, reference, character, either): (UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 1, 2, 3, 6)
    // sequence ::= root more
    #expect(rule(0).map(\.0) == [reference, reference, end] && rule(0).map(\.1) == [2, 1, 0])
    // more ::= " " command tail more | ""
    let commandIndex = UInt32(2 + seed.grammar.rules.firstIndex { $0.name == "command" }!)
    let tailIndex = UInt32(2 + seed.grammar.rules.firstIndex { $0.name == "tail" }!)
    #expect(rule(1).map(\.0) == [character, reference, reference, reference, alternative, end])
    #expect(rule(1).map(\.1) == [32, commandIndex, tailIndex, 1, 0, 0])
    // "Set background to " starts with S or s, and "background" with b or B; other letters as written.
    let command = rule(Int(commandIndex))
    #expect(command.prefix(4).map(\.0) == [character, either, character, character])
    #expect(command.prefix(4).map(\.1) == [UInt32(("S" as Unicode.Scalar).value), 115, 101, 116])
    #expect(command[5].0 == character && command[5].1 == 98 && command[6].0 == either && command[6].1 == 66)
    #expect(WhisperGrammar(CommandGrammar(rules: [])) == nil)
  }
}
