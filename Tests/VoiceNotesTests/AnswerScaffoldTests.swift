import Foundation
import LanguageModels
import Testing

@testable import VoiceNotes

/// The answer shape of the assistant: excerpts shown sentence by sentence under labels that the
/// answer's evidence picks from.
@Suite("Answer scaffold")
struct AnswerScaffoldTests {
  static func citation(_ number: Int, _ text: String, time: Double? = 12) -> NoteCitation {
    NoteCitation(
      number: number, noteID: "note-\(number)", title: "Note \(number)",
      recordedAt: Date(timeIntervalSince1970: 1_790_000_000), time: time, text: text)
  }

  @Test("each excerpt's sentences, and each action item, get a label of the excerpt's number and their place")
  func labels() {
    let scaffold = AnswerScaffold(excerpts: [
      Self.citation(2, "Call the dentist on Tuesday morning. Then buy the paint for the hall."),
      Self.citation(
        5, "Summary: Two errands for the week. Action items: Book the van for Friday; Pay the rent", time: nil),
    ])
    #expect(scaffold.sentences.map(\.label) == ["2.1", "2.2", "5.1", "5.2", "5.3"])
    #expect(scaffold.sentences.map(\.text)[4] == "Pay the rent")
    let lines = scaffold.listing.split(separator: "\n").map(String.init)
    #expect(lines[0].hasPrefix("[2] from the note \"Note 2\"") && lines[0].hasSuffix(", at 0:12:"), "\(lines[0])")
    #expect(lines[1] == "  2.1 Call the dentist on Tuesday morning.")
    #expect(lines[3].hasSuffix(":") && !lines[3].contains(", at "), "\(lines[3])")
    #expect(lines.count == 7 && lines[6] == "  5.3 Pay the rent")
  }

  @Test("the schema lets the evidence pick only the labels shown, then an answer that cites")
  func schema() throws {
    let scaffold = AnswerScaffold(excerpts: [Self.citation(1, "We land at nine forty on the third.")])
    let schema = try scaffold.schema().jsonSchema()
    #expect(schema.contains("\"1.1\""))
    #expect(!schema.contains("\"1.2\""))
    #expect(schema.contains("evidence") && schema.contains("answer"))
    #expect(try Regex(AnswerScaffold.citedPattern).wholeMatch(in: "You land at 9:40 [1].") != nil)
    #expect(try Regex(AnswerScaffold.citedPattern).wholeMatch(in: NoteAssistant.abstention) == nil)
    #expect(try Regex(AnswerScaffold.citedPattern).wholeMatch(in: "[1] [2] [3]") == nil)
    let cited = try Regex(AnswerScaffold.citedPattern)
    #expect(try cited.wholeMatch(in: "You land at 9:40 [1], and Ann picks you up [2].") != nil)
    #expect(try cited.wholeMatch(in: "You land at 9:40 [1].1, 1.2") == nil)
    #expect(try cited.wholeMatch(in: "You land at 9:40 [1]. 1.2 Ann picks you up [1].") == nil)
    #expect(try cited.wholeMatch(in: "The books are overdue. [1] and the methods section. [2]") == nil)
  }

  @Test("the evidence chooses among the sentences nearest the question, kept in the listing's order")
  func nearestSentences() async throws {
    var scaffold = AnswerScaffold(excerpts: [
      Self.citation(1, "Back from the garage. The car needs new oil and a tire. Then the budget for March."),
      Self.citation(2, "The dentist moved my appointment to Friday. Water the tomatoes in the garden."),
    ])
    #expect(scaffold.evidenceChoices == ["1.1", "1.2", "1.3", "2.1", "2.2"], "every sentence by default")
    let nearest = try await NoteAssistant.nearestSentences(
      to: "When is my dental visit, and what does my vehicle need?", in: scaffold, embedder: TopicEmbedder(),
      count: 2)
    #expect(nearest == ["1.2", "2.1"])
    scaffold.evidenceChoices = nearest
    let schema = try scaffold.schema().jsonSchema()
    #expect(schema.contains("\"1.2\"") && schema.contains("\"2.1\""))
    #expect(!schema.contains("\"1.1\"") && !schema.contains("\"2.2\""), "\(schema)")
    #expect(scaffold.listing.contains("2.2 Water the tomatoes in the garden."), "the prompt still shows every sentence")
    let few = try await NoteAssistant.nearestSentences(
      to: "teeth", in: scaffold, embedder: TopicEmbedder(), count: 5)
    #expect(few.count == 5, "no more sentences than the count: all of them")
  }
}
