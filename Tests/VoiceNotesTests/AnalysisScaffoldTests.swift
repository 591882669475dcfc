import Foundation
import LanguageModels
import Testing

@testable import VoiceNotes

/// The per-sentence answer shape: how a transcript is cut into sentences, and how an answer
/// becomes a `NoteAnalysis`.
@Suite("Analysis scaffold")
struct AnalysisScaffoldTests {
  @Test("sentences end at . ! ? and line breaks, not after a title or an initial; short fragments join the next")
  func sentences() {
    let text =
      "Okay. So Dr. Haddad moved it to 7 a.m. on Friday, tell J. Smith! Is that fine?\nNew line here without a stop"
    #expect(
      AnalysisScaffold.sentences(of: text) == [
        "Okay. So Dr. Haddad moved it to 7 a.m. on Friday, tell J. Smith!",
        "Is that fine? New line here without a stop",
      ])
    #expect(AnalysisScaffold.sentences(of: "Say \"hi\" to\\ Mo today please.") == ["Say 'hi' to Mo today please."])
  }

  @Test("two clauses joined by ', and' or by 'and I' are walked as two; a list item is not cut off")
  func clauses() {
    #expect(
      AnalysisScaffold.sentences(
        of: "Oskar is sending the contract today, and Imani is handling the invoice. Buy eggs, milk, and bread.")
        == ["Oskar is sending the contract today,", "and Imani is handling the invoice.", "Buy eggs, milk, and bread."])
    #expect(
      AnalysisScaffold.sentences(
        of: "Mina is doing the slides and I’ve got the script. Email Jo about the data, and, um, book a room for us.")
        == [
          "Mina is doing the slides", "and I’ve got the script.", "Email Jo about the data,",
          "and, um, book a room for us.",
        ])
    #expect(
      AnalysisScaffold.sentences(of: "Bread and butter and jam are on the list.") == [
        "Bread and butter and jam are on the list."
      ])
  }

  @Test("a sentence's names are chosen among its runs of capitalised words, once each, none when it has none")
  func nameSpans() throws {
    let doctor = AnalysisScaffold.nameSpans(of: "Okay, so Dr. Ramaswamy's office called, and Anna Maria Costa too.")
    #expect(
      doctor.spans == [
        "Dr. Ramaswamy", "Ramaswamy", "Anna", "Anna Maria", "Maria", "Anna Maria Costa", "Maria Costa", "Costa",
      ])
    #expect(doctor.names == 2, "\(doctor)")
    let pronouns = AnalysisScaffold.nameSpans(of: "She said I should ask Sam.")
    #expect(pronouns.spans == ["Sam"] && pronouns.names == 1, "\(pronouns)")
    let auxiliary = AnalysisScaffold.nameSpans(of: "Had he married a more amiable woman, Mr. Dashwood might have been.")
    #expect(auxiliary.spans == ["Mr. Dashwood", "Dashwood"] && auxiliary.names == 1, "\(auxiliary)")
    let instruction = AnalysisScaffold.nameSpans(of: "Email the landlord, then Ask Noor.")
    #expect(instruction.spans == ["Noor"] && instruction.names == 1, "\(instruction)")
    let named = AnalysisScaffold.nameSpans(of: "Bill said Mark will call.")
    #expect(named.spans == ["Bill", "Mark"] && named.names == 2, "\(named)")
    let none = AnalysisScaffold.nameSpans(of: "On my way, and buy milk at the shop.")
    #expect(none.spans.isEmpty && none.names == 0, "\(none)")
    // The schema offers the choices, and a sentence without any gets empty lists.
    let errands = AnalysisScaffold("Then we ask Sam for the keys today. Oh, and buy milk on the way home tonight.")
    let schema = try JSONSerialization.jsonObject(with: Data(errands.schema().jsonSchema().utf8))
    var choices: [[String]] = []
    var emptyLists = 0
    func visit(_ node: Any) {
      if let array = node as? [Any] { array.forEach(visit) }
      guard let object = node as? [String: Any] else { return }
      if let options = object["enum"] as? [String], options != AnalysisScaffold.kinds,
        options != AnalysisScaffold.states
      {
        choices.append(options)
      }
      if object["maxItems"] as? Int == 0 { emptyLists += 1 }
      object.values.forEach(visit)
    }
    visit(schema)
    #expect(Set(choices) == [["Sam"]], "\(choices)")
    #expect(emptyLists >= 2, "the second sentence's names and its tasks' people")
  }

  @Test("people are the names called persons; a task keeps its state and only the people its sentence names")
  func analysisFromAnswer() throws {
    let scaffold = AnalysisScaffold("Pick up the prescription from Walgreens for Ana. Ben will book the van tomorrow.")
    let json = """
      {"title":"Errands for the week ahead","summary":"Two errands.","tags":["errands"],"sentences":{\
      "1":{"text":"Pick up the prescription from Walgreens for Ana.","names":[{"name":"Walgreens","kind":"company"},\
      {"name":"Ana","kind":"person"}],"tasks":[{"state":"to do","task":"Pick up the prescription","people":\
      ["Ana","Ben","Walgreens"]}]},"2":{"text":"Ben will book the van tomorrow.","names":[{"name":"Ben",\
      "kind":"person"}],"tasks":[{"state":"done","task":"Book the van","people":["Ben"]}]}}}
      """
    let analysis = try scaffold.analysis(from: GeneratedContent(json: json))
    #expect(analysis.people == ["Ana", "Ben"])
    #expect(analysis.actionItems.map(\.task) == ["Pick up the prescription", "Book the van"])
    #expect(analysis.actionItems.map(\.people) == [["Ana"], ["Ben"]], "Walgreens is a company, Ben not in sentence 1")
    #expect(analysis.actionItems.map(\.isCompleted) == [false, true])
  }

  @Test("a task a sentence's list states twice in other words is kept once, in its fuller words")
  func restatedTask() throws {
    let scaffold = AnalysisScaffold("Tom suggested meeting at the library. Meet Ana at the cafe.")
    let json = """
      {"title":"Where the book club meets","summary":"A place.","tags":["books"],"sentences":{\
      "1":{"text":"Tom suggested meeting at the library.","names":[{"name":"Tom","kind":"person"}],"tasks":[\
      {"state":"to do","task":"Meet at the library","people":[]},{"state":"to do","task":"Suggest meeting at the \
      library","people":["Tom"]}]},"2":{"text":"Meet Ana at the cafe.","names":[{"name":"Ana","kind":"person"}],\
      "tasks":[{"state":"to do","task":"Meet Ana at the cafe","people":["Ana"]}]}}}
      """
    let analysis = try scaffold.analysis(from: GeneratedContent(json: json))
    #expect(analysis.actionItems.map(\.task) == ["Suggest meeting at the library", "Meet Ana at the cafe"])
    #expect(NoteAnalyzer.restates("Buy milk, eggs and bread", "Buy the milk"))
    #expect(!NoteAnalyzer.restates("Buy the milk", "Buy milk, eggs and bread"))
    #expect(!NoteAnalyzer.restates("Book flights to Porto", "Book the hotel"))
  }

  @Test("a task's person that the answer left out of the sentence's names is kept; one it called a company is not")
  func unlistedTaskPeople() throws {
    let scaffold = AnalysisScaffold("Ask Tess and Hobbs Ltd for the letters of support from Dr. Ruiz.")
    let json = """
      {"title":"Letters of support to collect","summary":"Letters.","tags":["grants"],"sentences":{\
      "1":{"text":"Ask Tess and Hobbs Ltd for the letters of support from Dr. Ruiz.","names":[{"name":"Hobbs Ltd",\
      "kind":"company"}],"tasks":[{"state":"to do","task":"Ask for the letters","people":["Tess","Hobbs Ltd",\
      "Dr. Ruiz"]}]}}}
      """
    let analysis = try scaffold.analysis(from: GeneratedContent(json: json))
    #expect(analysis.actionItems.map(\.people) == [["Tess", "Dr. Ruiz"]])
  }

  @Test("a task the answer gives nobody, or only a company, is about the one person its sentence names")
  func onePersonSentence() throws {
    let scaffold = AnalysisScaffold(
      "Priya will send the revised budget to Finance by Friday. Call Leo or Mia about it.")
    let json = """
      {"title":"Budget to Finance by Friday","summary":"A budget. A call.","tags":["budget"],"sentences":{\
      "1":{"text":"Priya will send the revised budget to Finance by Friday.","names":[{"name":"Priya","kind":"person"},\
      {"name":"Finance","kind":"company"}],"tasks":[{"state":"to do","task":"Send the budget","people":["Finance"]}]},\
      "2":{"text":"Call Leo or Mia about it.","names":[{"name":"Leo","kind":"person"},{"name":"Mia","kind":"person"}],\
      "tasks":[{"state":"to do","task":"Make a call about the budget","people":[]}]}}}
      """
    let analysis = try scaffold.analysis(from: GeneratedContent(json: json))
    #expect(analysis.actionItems.map(\.people) == [["Priya"], []], "two persons: the task's is not guessed")
  }

  @Test("a task the answer calls cancelled or an event is no action item; the schema offers those states")
  func cancelledAndEvents() throws {
    let scaffold = AnalysisScaffold("Skip the gym class this week, it moved. Dana fixed the printer this morning.")
    let json = """
      {"title":"Gym class and the printer","summary":"Two updates.","tags":["updates"],"sentences":{\
      "1":{"text":"Skip the gym class this week, it moved.","names":[],"tasks":[{"state":"cancelled",\
      "task":"Go to the gym class","people":[]},{"state":"to do","task":"Check the new class time",\
      "people":[]}]},"2":{"text":"Dana fixed the printer this morning.","names":[{"name":"Dana",\
      "kind":"person"}],"tasks":[{"state":"event","task":"Fix the printer","people":["Dana"]}]}}}
      """
    let analysis = try scaffold.analysis(from: GeneratedContent(json: json))
    #expect(analysis.actionItems.map(\.task) == ["Check the new class time"])
    #expect(analysis.people == ["Dana"], "a person named only in an event is still one of the note's people")
    let schema = try scaffold.schema().jsonSchema()
    for state in ["to do", "done", "cancelled", "event"] { #expect(schema.contains("\"\(state)\""), "\(state)") }
  }

  @Test("an English note's texts leave out Chinese, Japanese and Korean characters; a note that uses them keeps them")
  func foreignScripts() throws {
    let english = try AnalysisScaffold("Buy oat milk and fresh basil for the weekend.").schema().jsonSchema()
    #expect(english.contains("\u{4E00}-\u{9FFF}"), "the Han range is left out of an English note's texts")
    let mixed = try AnalysisScaffold("Buy 新鲜 basil and oat milk for the weekend.").schema().jsonSchema()
    #expect(!mixed.contains("\u{4E00}-\u{9FFF}"))
    #expect(AnalysisScaffold("Ask Gráinne and Phạm Minh Tuấn about it.").foreignCharacters.contains("\u{AC00}"))
  }

  @Test("the schema copies every sentence as a constant, in order")
  func schemaCopiesSentences() throws {
    let scaffold = AnalysisScaffold("First we buy the paint today. Then Mia calls the landlord.")
    let schema = try scaffold.schema().jsonSchema()
    #expect(schema.contains("First we buy the paint today."))
    #expect(schema.contains("Then Mia calls the landlord."))
  }
}
