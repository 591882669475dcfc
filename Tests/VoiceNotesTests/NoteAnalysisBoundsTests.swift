import Foundation
import LanguageModels
import Testing

@testable import VoiceNotes

/// Every text the model writes into an analysis has a length bound that decoding enforces, so a
/// model that loops inside a string still finishes its answer within the response budget.
@Suite("Bounded analysis texts")
struct NoteAnalysisBoundsTests {
  @Test("every string in the analysis schema, in arrays and nested items too, has a bounded pattern")
  func everyStringIsBounded() throws {
    // Title, summary, tags, people, a task and its people.
    try expectBounded(NoteAnalysis.generationSchema, strings: 6)
    // The schema a request really uses: the sentences' texts are constants, the kinds, states
    // and names enumerations; the title, summary, tags and each sentence's tasks are written.
    try expectBounded(AnalysisScaffold("Call Dr. Lee about the scan. Buy milk and eggs.").schema(), strings: 5)
  }

  private func expectBounded(_ generationSchema: GenerationSchema, strings expected: Int) throws {
    let schema = try JSONSerialization.jsonObject(with: Data(generationSchema.jsonSchema().utf8))
    var unbounded: [String] = []
    var strings = 0
    func visit(_ node: Any, path: String) {
      if let array = node as? [Any] {
        for (index, element) in array.enumerated() { visit(element, path: "\(path)[\(index)]") }
        return
      }
      guard let object = node as? [String: Any] else { return }
      if object["type"] as? String == "string", object["enum"] == nil, object["const"] == nil {
        strings += 1
        let pattern = object["pattern"] as? String ?? ""
        // A bounded pattern is anchored, counts its repetitions and has no open-ended one.
        let bounded =
          pattern.hasPrefix("^") && pattern.hasSuffix("$") && pattern.contains("}") && !pattern.contains("*")
          && !pattern.contains("+")
        if !bounded { unbounded.append("\(path): \(pattern.isEmpty ? "no pattern" : pattern)") }
      }
      for (key, value) in object { visit(value, path: "\(path)/\(key)") }
    }
    visit(schema, path: "")
    #expect(strings == expected, "strings the model writes")
    #expect(unbounded.isEmpty, "\(unbounded)")
  }

  @Test("a summary has at most three sentences; a point inside one only in a title before a name, a number or a.m.")
  func summarySentences() throws {
    let summary = try Regex(NoteAnalysis.summaryPattern)
    #expect(try summary.wholeMatch(in: "Dr. Haddad moved the scan to 7 a.m. on the 8th. It costs 2.5 hours.") != nil)
    #expect(try summary.wholeMatch(in: "One is here. Two is here. Three is here.") != nil)
    #expect(try summary.wholeMatch(in: "One is here. Two is here. Three is here. Four is here.") == nil)
    #expect(try summary.wholeMatch(in: "One is here. Two is here. Three joins the group.four runs on.") == nil)
    #expect(try summary.wholeMatch(in: "Dana makes the cake. The rest is pending.mia's bags too.") == nil)
    #expect(try summary.wholeMatch(in: "Eli may join the lunch group of Mr. .") == nil)
    #expect(try summary.wholeMatch(in: "The call is at 4 p.m on Friday.") != nil)
    let full = try Regex(NoteAnalysis.fullSummaryPattern)
    #expect(try full.wholeMatch(in: "The scan moved to the 8th at 7 a.m.") == nil)
    #expect(try full.wholeMatch(in: "Dr. Haddad moved the scan. It is at 7 a.m.") != nil)
    // "Mr" is no sentence of its own, so this is one sentence, not the two a full summary needs.
    #expect(try full.wholeMatch(in: "Mr. John Dashwood considers what he can do for them.") == nil)
    #expect(AnalysisScaffold("Buy milk on the way home. Call Ann about the party.").leastSummarySentences == 1)
    let three = "Buy milk on the way home. Call Ann about the party. Pay the rent by Friday."
    #expect(AnalysisScaffold(three).leastSummarySentences == 2)
  }

  @Test(
    "a title has three to eight words; a point only after a title such as Mr or in a number, a comma only between words"
  )
  func titleWords() throws {
    let title = try Regex(NoteAnalysis.titlePattern)
    #expect(try title.wholeMatch(in: "Mr. Dashwood's thoughts on marriage") != nil)
    #expect(try title.wholeMatch(in: "Release 2.5 planning notes") != nil)
    #expect(try title.wholeMatch(in: "Thoughts on his power and.marriage") == nil)
    #expect(try title.wholeMatch(in: "Thoughts on his power andMrs.") == nil)
    #expect(try title.wholeMatch(in: "Budget review for the team.") == nil)
    #expect(try title.wholeMatch(in: "Mr. John Dashwood's thoughts on his power and marriage") != nil, "eight words")
    #expect(try title.wholeMatch(in: "Budget review") == nil)
    #expect(try title.wholeMatch(in: "Groceries, dry cleaning and a lift") != nil)
    #expect(try title.wholeMatch(in: "Reminder for the weekend, buy oat milk, coffeebeans,and,") == nil)
    #expect(try title.wholeMatch(in: "Groceries and dry cleaning,") == nil)
    #expect(try title.wholeMatch(in: "Reminder for the weekend, buy oat milk, coffeebeansand10.0000") == nil)
  }

  @Test("a tiny model's greedy answer ends within the budget; its loop inside a string is cut at the bound")
  func loopingModelFinishes() async throws {
    // smollm-135m, greedy, on this line wrote "#/#/####..." as a task until the budget ran out.
    // Now it fills the summary and a dozen names to their bounds (about 900 tokens); without the
    // bounds its loop would run past any budget.
    let session = LanguageModelSession(
      model: SystemLanguageModel(weights: .tiny), instructions: NoteAnalyzer.instructions)
    let response = try await session.respond(
      to: "Analyse this voice note transcript:\n\nHe was not an old-sposed young man.", generating: NoteAnalysis.self,
      options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 2000))
    let analysis = response.content
    #expect(analysis.summary.count <= 600)
    #expect(analysis.tags.allSatisfy { $0.count <= 40 } && analysis.people.allSatisfy { $0.count <= 60 })
    #expect(analysis.actionItems.allSatisfy { $0.task.count <= 160 }, "\(analysis.actionItems.map(\.task))")
  }
}
