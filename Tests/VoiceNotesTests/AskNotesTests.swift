import Foundation
import LanguageModels
import Synchronization
import TestSupport
import Testing

@testable import VoiceNotes

/// Search by meaning and asking the notes, with the real embedding model (all-MiniLM-L6-v2 on
/// llama.cpp) and the real default language model, over a library of text notes.
@Suite("Asking the notes with real models", .serialized)
struct AskNotesTests {
  static let texts = [
    "Book a cleaning with the dentist for next Tuesday at ten. My tooth has been sore since the weekend.",
    "The car needs an oil change before the trip. The left rear tire keeps losing pressure, so ask the shop to check it for a nail.",
    "Budget review with the finance team. I promised to send them the revised spending forecast by Friday.",
    "Plant tomatoes near the fence this weekend. Ask Jonas whether he still has the spare seed trays.",
    "Flights to Lisbon are cheaper on Tuesday. The conference hotel is the one by the river.",
  ]

  /// A library of ``texts``, indexed with the real embedding model (no analysis).
  static func withLibrary(_ body: (Library, [VoiceNote]) async throws -> Void) async throws {
    let folder = Fixtures.temporaryFolder("ask").appendingPathComponent("library", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    let library = try await Library.open(LibraryConfiguration(folder: folder, identifiesSpeakers: false))
    var notes: [VoiceNote] = []
    for (index, text) in texts.enumerated() {
      notes.append(
        try await library.store.addTextNote(
          text, createdAt: Date(timeIntervalSinceReferenceDate: 815_000_000 + Double(index) * 3_600), stage: .indexing))
    }
    let result = try await library.resumeUnfinished()
    #expect(result.processed.count == texts.count)
    try await body(library, notes)
  }

  @Test("meaning finds paraphrases that keyword search misses; hybrid keeps exact words")
  func searchByMeaning() async throws {
    try await Self.withLibrary { library, notes in
      #expect(try await library.defaultSearchMode() == .hybrid)
      #expect(try await library.search("dental appointment", mode: .keyword).isEmpty)
      let dental = try await library.search("dental appointment", mode: .semantic)
      #expect(dental.first?.note.id == notes[0].id, "\(dental.map(\.note.id))")
      let vehicle = try await library.search("vehicle maintenance", mode: .semantic)
      #expect(vehicle.first?.note.id == notes[1].id)
      let money = try await library.search("what did I promise about money", mode: .hybrid)
      #expect(money.first?.note.id == notes[2].id)
      let trays = try await library.search("seed trays")
      #expect(trays.first?.note.id == notes[3].id)
      #expect(trays.first?.time != nil)
      let related = try await library.relatedNotes(to: notes[4].id)
      #expect(!related.contains { $0.note.id == notes[4].id })
    }
  }

  @Test("answers cite the note they come from, abstain when the notes do not say, and follow up")
  func asking() async throws {
    try await Self.withLibrary { library, notes in
      let assistant = NoteAssistant(library: library)
      let pieces = Mutex<[String]>([])
      let dentist = try await assistant.ask("When is my dentist appointment?") { piece in
        pieces.withLock { $0.append(piece) }
      }
      #expect(dentist.text.lowercased().contains("tuesday"), "\(dentist.text)")
      #expect(dentist.citations.contains { $0.noteID == notes[0].id }, "\(dentist.text)")
      #expect(!dentist.isAbstention)
      #expect(pieces.withLock { $0.count } > 1)
      #expect(pieces.withLock { $0.joined() } == dentist.text, "what streams is what the answer reads")

      let finance = try await assistant.ask("What did I promise the finance team?")
      #expect(finance.text.lowercased().contains("forecast"), "\(finance.text)")
      #expect(finance.citations.map(\.noteID).contains(notes[2].id), "\(finance.text)")
      #expect(finance.citations.allSatisfy { $0.noteID == notes[2].id }, "\(finance.text)")

      let passport = try await assistant.ask("What is my passport number?")
      #expect(passport.isAbstention, "\(passport.text)")
      #expect(passport.citations.isEmpty)

      // A first question that no note is about abstains without the model, and streams that.
      let fresh = NoteAssistant(library: library)
      let streamed = Mutex("")
      let wifi = try await fresh.ask("What is the wifi password at my parents' house?") { piece in
        streamed.withLock { $0 += piece }
      }
      #expect(wifi.isAbstention && wifi.citations.isEmpty, "\(wifi.text)")
      #expect(streamed.withLock { $0 } == NoteAssistant.abstention)
      #expect(fresh.book.all.isEmpty)
    }
  }
}

extension AskNotesTests {
  @Test("a conversation that nears the context size is summarised into a new session, not failed")
  func summarising() async throws {
    try await Self.withLibrary { library, notes in
      // A context of 1,536 tokens holds the instructions, the tools and two or three short turns.
      let model = SystemLanguageModel(weights: .small, contextSize: 1_536)
      let assistant = NoteAssistant(library: library, model: model)
      let questions = [
        "What is wrong with the car?", "What did I say about flights?", "Where is the hotel?", "What should I plant?",
      ]
      var answers: [NoteAnswer] = []
      for question in questions { answers.append(try await assistant.ask(question)) }
      #expect(await assistant.summaryCount >= 1)
      #expect(answers.count == 4)
      #expect(answers[3].citations.contains { $0.noteID == notes[3].id } || answers[3].isAbstention, "\(answers[3])")
    }
  }
}

@Suite("Answers from the model's text")
struct NoteAnswerParsingTests {
  /// What each excerpt of ``book(notes:)`` says: the words of the statements these tests cite.
  static let excerpt = """
    I planned to call the dentist on Tuesday and the bank, loop in legal before signing, and return the books \
    and the outline. Joy finished the dresses, the cues fire early, and I'm dropping Hulu before the 20th. \
    I need the memo, my dog is done.
    """

  private func book(notes: Int) -> CitationBook {
    let book = CitationBook()
    for index in 0..<notes {
      let note = VoiceNote(
        id: "note-\(index)", createdAt: Date(timeIntervalSinceReferenceDate: 0), duration: 10, audioFileName: "a.wav",
        originalFileName: "a.wav")
      _ = book.add(Self.excerpt, of: note, at: Double(index))
    }
    return book
  }

  @Test("citations are the numbers the text uses, in order; numbers never shown are dropped")
  func citations() {
    let answer = NoteAssistant.answer(
      from: " Call the dentist on Tuesday [2] and the bank [1] [2] [7]. ", book: book(notes: 2))
    #expect(answer.text == "Call the dentist on Tuesday [2] and the bank [1] [2].")
    #expect(answer.citations.map(\.number) == [2, 1])
    #expect(answer.citations.map(\.noteID) == ["note-1", "note-0"])
    #expect(!answer.isAbstention)
  }

  @Test("a citation follows the evidence: an excerpt it does not point at becomes the one it does, or goes")
  func evidence() {
    let moved = NoteAssistant.answer(
      from: "Loop in legal before signing [1] [3].", book: book(notes: 3), evidence: ["3.2"])
    #expect(moved.text == "Loop in legal before signing [3].")
    #expect(moved.citations.map(\.number) == [3])
    let kept = NoteAssistant.answer(
      from: "Return the books [1], and the outline [2] [3].", book: book(notes: 3), evidence: ["1.1", "2.4"])
    #expect(kept.text == "Return the books [1], and the outline [2].")
    #expect(kept.citations.map(\.number) == [1, 2])
  }

  @Test("a citation goes to the shown excerpt that holds the most of its statement's words")
  func source() {
    let book = CitationBook()
    let note = VoiceNote(
      id: "note", createdAt: Date(timeIntervalSinceReferenceDate: 0), duration: 10, audioFileName: "a.wav",
      originalFileName: "a.wav")
    let shown = [
      book.add("Call the dentist's office on Tuesday about the blood work that is booked.", of: note, at: 0),
      book.add("The MRI is booked for the 8th at the Riverside imaging center.", of: note, at: 5),
    ]
    let moved = NoteAssistant.answer(
      from: "Your scan is at the Riverside imaging center on the 8th [1]. Call the dentist on Tuesday [1].",
      book: book, evidence: ["1.1"], shown: shown)
    #expect(
      moved.text == "Your scan is at the Riverside imaging center on the 8th [2]. Call the dentist on Tuesday [1].")
    #expect(moved.citations.map(\.number) == [2, 1])
    // Words that no excerpt holds more of than the others leave the evidence to decide.
    let even = NoteAssistant.answer(from: "It is booked [1].", book: book, evidence: ["2.1"], shown: shown)
    #expect(even.citations.map(\.number) == [2])
    // A number no excerpt has is placed by the same rules, and dropped when they place nothing.
    let unknown = NoteAssistant.answer(
      from: "The MRI is at Riverside [5]. It is booked [4].", book: book, evidence: ["1.1"], shown: shown)
    #expect(unknown.text == "The MRI is at Riverside [2]. It is booked [1].")
    #expect(unknown.citations.map(\.number) == [2, 1])
    let unplaced = NoteAssistant.answer(
      from: "It is booked [4].", book: book, evidence: ["1.1", "2.1"], shown: shown)
    #expect(unplaced.text == "It is booked.")
    #expect(unplaced.citations.isEmpty)
  }

  @Test("while an answer is written, what shows is what it will read: citations placed, repeats held back")
  func streaming() {
    let book = book(notes: 2)
    let final = "Joy finished the dresses [1]. The cues fire early [2]. The cues fire early [2]."
    var shown = ""
    var steps: [String] = []
    for end in final.indices + [final.endIndex] {
      let visible = NoteAssistant.visibleAnswer(String(final[..<end]), book: book, evidence: [], shown: [])
      #expect(visible.hasPrefix(shown), "\(visible) after \(shown)")
      if visible != shown { steps.append(visible) }
      shown = visible
    }
    let answer = NoteAssistant.answer(from: final, book: book)
    #expect(answer.text.hasPrefix(shown))
    #expect(steps.contains("Joy finished the dresses"), "words show before their citation")
    #expect(!steps.contains { $0.hasSuffix("[") || $0.hasSuffix("[1") }, "no unfinished citation shows")
    #expect(!steps.contains { $0.components(separatedBy: "The cues").count > 2 }, "the repeat never shows")
    #expect(answer.text == "Joy finished the dresses [1]. The cues fire early [2].")
    // A citation of a number no excerpt has shows as the one it is placed at, or not at all.
    let placed = NoteAssistant.visibleAnswer("You planned it [7]", book: book, evidence: ["2.1"], shown: [])
    #expect(placed == "You planned it [2]")
  }

  @Test("the speaker's own words are turned to the user, except in a quotation")
  func secondPerson() {
    let cases = [
      ("I need to sign my form.", "You need to sign your form."),
      ("Kofi thinks it has too many steps, and I agree.", "Kofi thinks it has too many steps, and you agree."),
      (
        "I was back at my grandmother's house, and I am tired.",
        "You were back at your grandmother's house, and you are tired."
      ),
      (
        "I'm on the Tuesday shift [1]. I’ll email him myself [2].",
        "You're on the Tuesday shift [1]. You’ll email him yourself [2]."
      ),
      ("She said, 'I take it back.' That stuck with me.", "She said, 'I take it back.' That stuck with you."),
      ("Pickles' card is in the drawer, remind me [1].", "Pickles' card is in the drawer, remind you [1]."),
      ("My memo is mine.", "Your memo is yours."),
    ]
    for (spoken, addressed) in cases {
      #expect(SecondPerson.addressed(spoken) == addressed)
      #expect(SecondPerson.addressed(addressed) == addressed, "twice changes nothing")
    }
    let final = "I need the memo [1]. My dog and I am done [2]."
    let book = book(notes: 2)
    var shown = ""
    for end in final.indices + [final.endIndex] {
      let visible = NoteAssistant.visibleAnswer(String(final[..<end]), book: book, evidence: [], shown: [])
      #expect(visible.hasPrefix(shown), "\(visible) after \(shown)")
      shown = visible
    }
    let answer = NoteAssistant.answer(from: final, book: book)
    #expect(answer.text == "You need the memo [1]. Your dog and you are done [2].")
    #expect(answer.text.hasPrefix(shown))
  }

  @Test("a statement written again word for word is left out with its citation")
  func repeated() {
    let answer = NoteAssistant.answer(
      from: "Joy finished the dresses [1]. The cues fire early [1]. The cues fire early [1]. The cues fire early [2].",
      book: book(notes: 2))
    #expect(answer.text == "Joy finished the dresses [1]. The cues fire early [1].")
    #expect(answer.citations.map(\.number) == [1])
  }

  @Test("an excerpt is kept only when its short answer brings words of its own that the question lacks")
  func drawnAnswers() {
    let excerpt = "Flights are booked, we land in Lisbon at 9:40 on the 3rd. I need to text Inês the flight number."
    #expect(ExcerptCheck.isDrawn("9:40 on the 3rd", from: excerpt, question: "When do we land in Lisbon?"))
    #expect(ExcerptCheck.isDrawn("Inês", from: excerpt, question: "Who do I text the flight number to?"))
    // Other endings of an excerpt's word count as its own.
    #expect(ExcerptCheck.isDrawn("texting her", from: excerpt, question: "What do I still have to do?"))
    // The question's own words, words the excerpt does not have, and "not given" bring nothing.
    #expect(!ExcerptCheck.isDrawn("the flight number", from: excerpt, question: "What is our flight number?"))
    #expect(!ExcerptCheck.isDrawn("flight LH 1172", from: excerpt, question: "What is our flight number?"))
    #expect(!ExcerptCheck.isDrawn("Not given.", from: excerpt, question: "What is our flight number?"))
    #expect(!ExcerptCheck.isDrawn("the", from: excerpt, question: "What is our flight number?"))
  }

  @Test("a statement with no word of the excerpt it cites is left out; short answers stand in for none left")
  func grounding() {
    let answer = NoteAssistant.answer(
      from: "You'll ask Ann, actually no, Ben [1]. Joy finished the dresses [2]. The cue fired early [1].",
      book: book(notes: 2))
    #expect(answer.text == "Joy finished the dresses [2]. The cue fired early [1].")
    #expect(answer.citations.map(\.number) == [2, 1])
    let copied = NoteAssistant.answer(from: "You'll ask Ann, actually no, Ben [1].", book: book(notes: 2))
    #expect(copied.citations.isEmpty)
    #expect(!copied.isAbstention)
    let book = book(notes: 2)
    let short = NoteAssistant.answer(
      fromShortAnswers: [(book.citation(1)!, "after two"), (book.citation(2)!, "Tuesday.")], book: book)
    #expect(short.text == "After two [1]. Tuesday [2].")
    #expect(short.citations.map(\.number) == [1, 2])
    #expect(!short.isAbstention)
  }

  @Test("a word with a digit tells, however short: an apartment 4B, a 5K")
  func digitWords() {
    #expect(NoteAssistant.telling("Mr. Dobrev in 4B ran a 5K") == ["dobrev", "4b", "ran", "5k"])
    let excerpt = "She's leaving the spare key with Mr. Dobrev in 4B, so I need to grab it from him."
    #expect(ExcerptCheck.isDrawn("4B", from: excerpt, question: "Which apartment does Mr. Dobrev live in?"))
    #expect(!ExcerptCheck.isDrawn("4C", from: excerpt, question: "Which apartment does Mr. Dobrev live in?"))
  }

  @Test("the abstention cites nothing; an answer that is silent on one part and cites another is an answer")
  func abstention() {
    let answer = NoteAssistant.answer(from: NoteAssistant.abstention, book: book(notes: 3))
    #expect(answer.isAbstention)
    #expect(answer.citations.isEmpty)
    let partial = NoteAssistant.answer(
      from: "You are dropping Hulu before the 20th [2]; the notes don't say which else.", book: book(notes: 3))
    #expect(!partial.isAbstention)
    #expect(partial.citations.map(\.number) == [2])
  }

  @Test("only notes about the question are shown: the best by words, then the nearest by meaning")
  func relevance() {
    func result(_ id: String, _ similarity: Double?, keywordRank: Int? = nil) -> SearchResult {
      let note = VoiceNote(
        id: id, createdAt: Date(timeIntervalSinceReferenceDate: 0), duration: 10, audioFileName: "a.wav",
        originalFileName: "a.wav")
      var result = SearchResult(note: note, score: 1, matchedField: .transcript, snippetRuns: [])
      result.similarity = similarity
      result.keywordRank = keywordRank
      return result
    }
    let found = [
      result("close", 0.76, keywordRank: 1), result("near", 0.5), result("word", nil, keywordRank: 2),
      result("far", 0.4),
    ]
    #expect(SearchNotesTool.about(query: found).map(\.note.id) == ["close", "near"])
    let rare = [result("meaning", 0.45), result("contractor", 0.18, keywordRank: 0), result("weak", 0.22)]
    #expect(SearchNotesTool.about(query: rare).map(\.note.id) == ["meaning", "contractor"])
    let weak = [result("weak", 0.22), result("word", nil, keywordRank: 1)]
    #expect(SearchNotesTool.about(query: weak).isEmpty)
    let fused = [
      result("both", 0.5, keywordRank: 1), result("rare", 0.2, keywordRank: 0), result("meaning", 0.7),
      result("next", 0.6),
    ]
    #expect(SearchNotesTool.closest(fused, limit: 3).map(\.note.id) == ["rare", "meaning", "next"])
    let byWords = [result("first", nil, keywordRank: 0), result("second", nil, keywordRank: 1)]
    #expect(SearchNotesTool.closest(byWords, limit: 1).map(\.note.id) == ["first"])
  }

  @Test("the same excerpt shown twice keeps its number")
  func numbering() {
    let book = book(notes: 2)
    let note = VoiceNote(
      id: "note-0", createdAt: Date(timeIntervalSinceReferenceDate: 0), duration: 10, audioFileName: "a.wav",
      originalFileName: "a.wav")
    #expect(book.add(Self.excerpt, of: note, at: 0).number == 1)
    #expect(book.add("another", of: note, at: 0).number == 3)
    #expect(CitationBook.line(book.citation(3)!).hasPrefix("[3] from the note \""))
  }
}
