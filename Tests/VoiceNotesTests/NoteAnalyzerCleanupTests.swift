import Testing

@testable import VoiceNotes

@Suite("Checking an analysis against its transcript")
struct NoteAnalyzerCleanupTests {
  private let walk = "Went for a walk by the river with Priya. Mom called about Sunday lunch."

  private func analysis(people: [String], tasks: [(String, [String])]) -> NoteAnalysis {
    NoteAnalysis(
      title: "A walk by the river", summary: "A walk.", tags: ["walk"], people: people,
      actionItems: tasks.map { AnalyzedActionItem(isCompleted: false, task: $0.0, people: $0.1) })
  }

  @Test("tags come out lowercase, each once, and an analysis has at least one")
  func tagsAreLowercase() {
    var note = analysis(people: [], tasks: [])
    note.tags = ["River", "river ", "Émile's Café", "  "]
    #expect(NoteAnalyzer.cleaned(note, transcript: walk).tags == ["river", "émile's café"])
    note.tags = [" "]
    #expect(NoteAnalyzer.cleaned(note, transcript: walk).tags == ["note"])
  }

  @Test("people not named in the transcript, relations without a name and days of the week are dropped")
  func peopleMustBeNamed() {
    let cleaned = NoteAnalyzer.cleaned(
      analysis(people: ["Priya", "Mom", "I", "Carlos", "the river", "Sunday lunch", "Sunday"], tasks: []),
      transcript: walk)
    #expect(cleaned.people == ["Priya"])
  }

  @Test("in a speaker-labelled transcript a named speaker is a person heard, \"Speaker 1\" is nobody")
  func speakerLabels() {
    let conversation = "Speaker 1: Can you send the budget by Friday?\nPriya: I'll send it tomorrow."
    let cleaned = NoteAnalyzer.cleaned(
      analysis(
        people: ["Speaker 1", "Speaker", "Priya", "Speaker 2"],
        tasks: [("Send the budget by Friday", ["Priya", "Speaker 1"])]),
      transcript: conversation)
    #expect(cleaned.people == ["Priya"])
    #expect(cleaned.actionItems.map(\.people) == [["Priya"]])
    #expect(NoteAnalyzer.conversationPreamble.contains("Speaker"))
  }

  @Test("names are matched through titles, possessives and diacritics, and written as the transcript writes them")
  func namesAsTheTranscriptWritesThem() {
    let note = "Dr. Okafor's office moved the appointment. Tell Inês about it, and ask Professor Lund too."
    let cleaned = NoteAnalyzer.cleaned(
      analysis(
        people: ["Okafor", "Ines", "Professor Lund", "Lund", "Mr. Inês", "Appointment Desk", "Dr. Okafor's office"],
        tasks: []),
      transcript: note)
    #expect(cleaned.people == ["Dr. Okafor", "Inês", "Professor Lund"], "\(cleaned.people)")
    // A full stop that ends a sentence is not a title.
    let sentence = "I had lunch with Kofi. Priya joined later."
    #expect(
      NoteAnalyzer.cleaned(analysis(people: ["Priya", "Kofi"], tasks: []), transcript: sentence).people == [
        "Priya", "Kofi",
      ])
  }

  @Test("someone a task involves is one of the note's people")
  func taskPeopleJoinTheNote() {
    let cleaned = NoteAnalyzer.cleaned(
      analysis(people: [], tasks: [("Plan Sunday lunch with Priya", ["Priya", "Zoe"])]), transcript: walk)
    #expect(cleaned.people == ["Priya"])
    #expect(cleaned.actionItems.first?.people == ["Priya"])
  }

  @Test("a task that names people is about them alone; one that names nobody keeps the people given")
  func namedTaskPeople() {
    let plans = "Priya and Tom are coming on Sunday. Ask Tom to bring the salad, and Priya will book the table."
    let cleaned = NoteAnalyzer.cleaned(
      analysis(
        people: ["Priya", "Tom"],
        tasks: [
          ("Ask Tom to bring the salad", ["Tom", "Priya"]), ("Book the table", ["Priya"]), ("Bring a salad", []),
        ]),
      transcript: plans)
    #expect(cleaned.actionItems.map(\.people) == [["Tom"], ["Priya"], []])
  }

  @Test("tasks about things the transcript never mentions are dropped; reworded ones stay")
  func tasksMustBeGrounded() {
    let car = "Registration renewal came in the mail, due on the fifteenth. Book the oil change."
    #expect(NoteAnalyzer.isGrounded("Renew the registration by the fifteenth", in: car))
    #expect(NoteAnalyzer.isGrounded("Book an oil change", in: car))
    #expect(!NoteAnalyzer.isGrounded("Call the plumber", in: car))
    #expect(!NoteAnalyzer.isGrounded("Book a flight to Lisbon", in: car))
    let cleaned = NoteAnalyzer.cleaned(
      analysis(
        people: [], tasks: [("Book the oil change", []), ("call the lawyer", []), ("Book the oil change.", [])]),
      transcript: car)
    #expect(cleaned.actionItems.map(\.task) == ["Book the oil change"])
  }
}
