import Foundation
import TestSupport
import Testing

@testable import VoiceNotes

/// A store in a fresh temporary library, removed after `body`.
private func withStore(_ body: (NoteStore, URL) async throws -> Void) async throws {
  let library = Fixtures.temporaryFolder("store").appendingPathComponent("library", isDirectory: true)
  defer { try? FileManager.default.removeItem(at: library.deletingLastPathComponent()) }
  try await body(try NoteStore(library: library), library)
}

/// A note with the given fields, made `minutesAgo` minutes before a fixed date.
private func makeNote(
  _ id: String, minutesAgo: Double = 0, title: String = "Untitled", transcript: String = "", summary: String? = nil,
  tags: [String] = [], people: [String] = [], actionItems: [NoteActionItem] = [], stage: ProcessingState.Stage = .done
) -> VoiceNote {
  let created = Date(timeIntervalSinceReferenceDate: 800_000_000 - minutesAgo * 60)
  var note = VoiceNote(
    id: id, createdAt: created, duration: 12.5, audioFileName: "\(id).wav", originalFileName: "memo.wav")
  note.title = title
  if !transcript.isEmpty {
    note.transcript = Transcript(
      language: "en", duration: 12.5,
      segments: [
        .init(text: transcript, start: 0, end: 12.5, words: [.init(text: "First", start: 0, end: 0.4, confidence: 0.9)])
      ])
  }
  note.summary = summary
  note.tags = tags
  note.people = people
  note.actionItems = actionItems
  note.processing = ProcessingState(stage: stage)
  return note
}

/// The notes the search tests look through: each word below lives in exactly one field.
private let searchNotes = [
  makeNote(
    "aaaa0001-0000-4000-8000-000000000001", minutesAgo: 40, title: "Quarterly budget review",
    transcript: "We went over the numbers with the finance folks.\nNothing surprising this time.",
    summary: "The spending plan looks healthy.", tags: ["finance", "planning"], people: ["Marcus Lee"]),
  makeNote(
    "aaaa0002-0000-4000-8000-000000000002", minutesAgo: 30, title: "Garden ideas",
    transcript: "Plant tomatoes near the fence and ask about the budget for a greenhouse.",
    summary: "Vegetables and a greenhouse.", tags: ["gardening"], people: ["José Álvarez"],
    actionItems: [NoteActionItem(id: "bbbb0001-0000-4000-8000-000000000001", task: "Order seeds", people: ["Zoë"])]),
  makeNote(
    "aaaa0003-0000-4000-8000-000000000003", minutesAgo: 20, title: "Trip to Lisbon",
    transcript: "Flights are cheaper on Tuesday. The café near the hotel opens at seven.",
    summary: "Travel logistics for the conference.", tags: ["travel"],
    actionItems: [
      NoteActionItem(id: "bbbb0002-0000-4000-8000-000000000002", task: "Book the hotel", people: ["Priya"]),
      NoteActionItem(
        id: "bbbb0003-0000-4000-8000-000000000003", isCompleted: true, task: "Renew passport", people: []),
    ]),
]

@Suite("Note store")
struct NoteStoreTests {
  // MARK: - Persistence

  @Test("a note saved by one store is read back whole by another")
  func persistence() async throws {
    try await withStore { store, library in
      var note = searchNotes[1]
      note.processing = ProcessingState(stage: .analyzing, lastError: "model missing")
      note.hasCustomTitle = true
      note.summary = nil
      try await store.save(note)
      let reopened = try NoteStore(library: library)
      #expect(try await reopened.note(id: note.id) == note)
      #expect(try await reopened.count() == 1)
      #expect(FileManager.default.fileExists(atPath: library.appendingPathComponent("notes.sqlite").path))
      #expect(FileManager.default.fileExists(atPath: reopened.audioFolder.path))
    }
  }

  @Test("saving again updates the note and its search entry instead of adding one")
  func update() async throws {
    try await withStore { store, _ in
      var note = searchNotes[0]
      try await store.save(note)
      note.title = "Annual forecast"
      try await store.save(note)
      #expect(try await store.count() == 1)
      #expect(try await store.note(id: note.id)?.title == "Annual forecast")
      #expect(try await store.search("quarterly").isEmpty)
      #expect(try await store.search("forecast").map(\.note.id) == [note.id])
    }
  }

  @Test("all notes come newest first; notes needing work oldest first, without failed or finished ones")
  func ordering() async throws {
    try await withStore { store, _ in
      var failed = makeNote("cccc0004", minutesAgo: 50, stage: .analyzing)
      failed.processing.lastError = "no model"
      for note in searchNotes + [
        makeNote("cccc0001", minutesAgo: 10, stage: .transcribing),
        makeNote("cccc0002", minutesAgo: 60, stage: .analyzing),
        failed,
      ] {
        try await store.save(note)
      }
      #expect(try await store.allNotes().map(\.id).prefix(2) == ["cccc0001", searchNotes[2].id])
      #expect(try await store.allNotes().last?.id == "cccc0002")
      #expect(try await store.notesNeedingWork().map(\.id) == ["cccc0002", "cccc0001"])
    }
  }

  @Test("several processes opening a new library at the same moment all open it")
  func concurrentFirstOpen() async throws {
    let folder = Fixtures.temporaryFolder("store-race")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Each connection locks like another process would; a race on the WAL switch used to fail one.
    for trial in 0..<20 {
      let library = folder.appendingPathComponent("library-\(trial)", isDirectory: true)
      let failures = await withTaskGroup(of: String?.self) { group in
        for _ in 0..<4 {
          group.addTask {
            do {
              let store = try NoteStore(library: library)
              _ = try await store.count()
              return nil
            } catch {
              return "\(error)"
            }
          }
        }
        return await group.compactMap { $0 }.reduce(into: [String]()) { $0.append($1) }
      }
      #expect(failures.isEmpty, "trial \(trial): \(failures)")
    }
  }

  @Test("the schema is created at the latest version in WAL mode, and a newer database is refused")
  func migrations() async throws {
    try await withStore { store, library in
      let database = try SQLiteDatabase(path: store.databaseURL.path)
      #expect(try database.userVersion == NoteStore.schemaVersion)
      #expect(NoteStore.schemaVersion == 5)
      #expect(try database.text("PRAGMA journal_mode") == "wal")
      try database.setUserVersion(99)
      await #expect(
        throws: NoteStoreError.newerSchema(found: 99, supported: NoteStore.schemaVersion, path: store.databaseURL.path)
      ) {
        _ = try NoteStore(library: library)
      }
    }
  }

  @Test("a version 1 library gets its word list on opening, and prefixes find what they found before")
  func wordListMigration() async throws {
    try await withStore { store, library in
      try await store.save(searchNotes[0])
      let before = try await store.search("bud").map(\.note.id)
      #expect(!before.isEmpty)
      let database = try SQLiteDatabase(path: store.databaseURL.path)
      try database.execute("DROP TABLE search_terms")
      try database.setUserVersion(1)
      let reopened = try NoteStore(library: library)
      #expect(try await reopened.search("bud").map(\.note.id) == before)
      #expect(try await reopened.completions("bud") == ["budget"])
    }
  }

  @Test("the default library follows XDG_DATA_HOME")
  func defaultLibrary() {
    let expected =
      ProcessInfo.processInfo.environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? (NSHomeDirectory() + "/.local/share")
    #expect(NoteStore.defaultLibrary.standardizedFileURL.path == expected + "/voicenotes")
  }

  // MARK: - Prefixes and deletion

  @Test("a unique prefix resolves; a missing or shared one says what to do")
  func prefixes() async throws {
    try await withStore { store, _ in
      for note in searchNotes { try await store.save(note) }
      #expect(try await store.resolve("aaaa0002").id == searchNotes[1].id)
      #expect(try await store.resolve(" AAAA0003 ").id == searchNotes[2].id)
      #expect(try await store.resolve(searchNotes[0].id).id == searchNotes[0].id)
      await #expect(throws: NoteStoreError.noteNotFound("ab12")) { try await store.resolve("ab12") }
      let ambiguous = await #expect(throws: NoteStoreError.self) { try await store.resolve("aaaa") }
      #expect(ambiguous == .ambiguous("aaaa", searchNotes.map(\.id)))
      #expect(NoteStoreError.noteNotFound("ab12").localizedDescription.contains("no note starts with 'ab12'"))
      #expect(ambiguous?.localizedDescription.contains("'aaaa' matches 3 notes (aaaa0001, aaaa0002, aaaa0003)") == true)
    }
  }

  @Test("deleting a note removes its row, its search entry and its audio file")
  func delete() async throws {
    try await withStore { store, _ in
      let note = searchNotes[0]
      try await store.save(note)
      let audio = store.audioFolder.appendingPathComponent(note.audioFileName)
      try Data("RIFF".utf8).write(to: audio)
      try await store.delete(id: note.id)
      #expect(!FileManager.default.fileExists(atPath: audio.path))
      #expect(try await store.note(id: note.id) == nil)
      #expect(try await store.search("budget").isEmpty)
      await #expect(throws: NoteStoreError.noteNotFound(note.id)) { try await store.delete(id: note.id) }
    }
  }

  // MARK: - Search

  @Test(
    "each scope finds its own field and not the others",
    arguments: [
      (SearchScope.title, "lisbon", "aaaa0003", "finance"),
      (.transcript, "tomatoes", "aaaa0002", "quarterly"),
      (.summary, "logistics", "aaaa0003", "tomatoes"),
      (.tags, "gardening", "aaaa0002", "greenhouse"),
      (.people, "priya", "aaaa0003", "hotel"),
      (.people, "zoe", "aaaa0002", "seeds"),
      (.actionItems, "seeds", "aaaa0002", "garden"),
      (.actionItems, "priya", "aaaa0003", "travel"),
    ])
  func scopes(scope: SearchScope, finds: String, in noteID: String, misses: String) async throws {
    try await withStore { store, _ in
      for note in searchNotes { try await store.save(note) }
      let results = try await store.search(finds, scope: scope)
      #expect(results.map { String($0.note.id.prefix(8)) } == [noteID])
      #expect(results.first?.matchedField == scope)
      #expect(try await store.search(misses, scope: scope).isEmpty)
      #expect(try await store.search(finds, scope: .all).map { String($0.note.id.prefix(8)) }.contains(noteID))
    }
  }

  @Test("case, diacritics and word prefixes do not matter; every word must match")
  func folding() async throws {
    try await withStore { store, _ in
      for note in searchNotes { try await store.save(note) }
      func ids(_ query: String, _ scope: SearchScope = .all) async throws -> [String] {
        try await store.search(query, scope: scope).map { String($0.note.id.prefix(8)) }.sorted()
      }
      #expect(try await ids("mar") == ["aaaa0001"])
      #expect(try await ids("jose") == ["aaaa0002"])
      #expect(try await ids("JOSÉ alv") == ["aaaa0002"])
      #expect(try await ids("cafe") == ["aaaa0003"])
      #expect(try await ids("CAFÉ") == ["aaaa0003"])
      #expect(try await ids("budget") == ["aaaa0001", "aaaa0002"])
      #expect(try await ids("budget green") == ["aaaa0002"])
      #expect(try await ids("budget lisbon").isEmpty)
      #expect(try await ids("zoë", .people) == ["aaaa0002"])
    }
  }

  /// Found by fuzzing (Fuzz/Corpus/SearchQuery/combining-mark-match): the snippet's marker and a
  /// combining mark that starts the word are one Character, so reading the snippet by Character lost
  /// the marker and the match was not highlighted.
  @Test("a matched word that starts with a combining mark is highlighted")
  func highlightsWordsStartingWithACombiningMark() throws {
    let highlighter = SearchHighlighter(try FullTextQuery("cafe"))
    let snippet = try #require(highlighter.match("see \u{301}cafe now")?.snippet)
    #expect(
      SearchResult.runs(ofMarked: snippet) == [
        .init(text: "see ", isMatch: false), .init(text: "\u{301}cafe", isMatch: true),
        .init(text: " now", isMatch: false),
      ])
  }

  @Test("a question's stop words, which did not make a note match, are not marked in its snippet")
  func stopWordsAreNotMarkedWhenAnyWordMatches() throws {
    let query = try FullTextQuery("where to meet")
    // "to" would mark "Tom", a person's name, as a match of "where to meet".
    #expect(SearchHighlighter(query, matchingAnyWord: true).match("Tom") == nil)
    #expect(SearchHighlighter(query).match("Tom") != nil)
    let snippet = try #require(SearchHighlighter(query, matchingAnyWord: true).match("Tom suggested meeting")?.snippet)
    #expect(SearchResult.runs(ofMarked: snippet).filter(\.isMatch).map(\.text) == ["meeting"])
  }

  /// Found by fuzzing: text holding the snippet's private-use markers must not mark anything itself.
  @Test("marker characters in a note's text mark nothing")
  func markerCharactersInTheTextMarkNothing() throws {
    let highlighter = SearchHighlighter(try FullTextQuery("budget"))
    let text = "plan \(SearchHighlighter.matchEnd)the\(SearchHighlighter.matchStart) budget"
    let snippet = try #require(highlighter.match(text)?.snippet)
    #expect(
      SearchResult.runs(ofMarked: snippet) == [
        .init(text: "plan the ", isMatch: false), .init(text: "budget", isMatch: true),
      ])
  }

  /// Found by fuzzing (Fuzz/Corpus/SearchQuery/quote-before-combining-mark): the quote in `o"\u{301}neil`
  /// and its combining mark are one Character, so escaping quotes by Character left it single and
  /// FTS5 failed with a syntax error.
  @Test("a quote followed by a combining mark stays inside the query's phrase")
  func quoteBeforeACombiningMark() async throws {
    try await withStore { store, _ in
      for note in searchNotes { try await store.save(note) }
      #expect(try await store.search("o\"\u{301}neil' budget").isEmpty)
      #expect(try FullTextQuery("a\"\u{301}b").expression(in: .all) == "\"a\"\"\u{301}b\"*")
    }
  }

  /// Found by fuzzing under AddressSanitizer (every store open): the ranking function's setup bound
  /// FTS5's pointer type as a temporary C string that SQLite read after it was freed. Without a
  /// sanitizer the freed memory usually still holds the name, so this fails reliably only in
  /// `swift test --sanitize=address` (or scripts/fuzz.sh SearchQuery, which starts by opening a store).
  @Test("every connection gets the ranking function")
  func everyConnectionRanks() async throws {
    try await withStore { store, library in
      try await store.save(searchNotes[0])
      for _ in 0..<20 {
        let other = try NoteStore(library: library)
        #expect(try await other.search("budget").first?.score ?? 0 > 0)
      }
    }
  }

  @Test("a title match ranks above a transcript match, and the score says so")
  func ranking() async throws {
    try await withStore { store, _ in
      for note in searchNotes { try await store.save(note) }
      let results = try await store.search("budget")
      #expect(results.map(\.note.id) == [searchNotes[0].id, searchNotes[1].id])
      #expect(results.map(\.matchedField) == [.title, .transcript])
      #expect(results[0].score > results[1].score)
      #expect(try await store.search("budget", limit: 1).count == 1)
    }
  }

  @Test("snippets highlight the matched words on one line, with ellipses where text is left out")
  func snippets() async throws {
    try await withStore { store, _ in
      var long = makeNote(
        "dddd0001", title: "Long",
        transcript: (1...40).map { "word\($0)" }.joined(separator: " ")
          + "\nthen call Marcus about the budget\n" + (41...80).map { "word\($0)" }.joined(separator: " "))
      long.people = []
      try await store.save(long)
      try await store.save(searchNotes[1])
      let result = try #require(try await store.search("marc budg", scope: .transcript).first)
      #expect(result.snippet.contains("call [Marcus] about the [budget]"))
      #expect(result.snippet.hasPrefix("…") && result.snippet.hasSuffix("…"))
      #expect(!result.snippet.contains("\n"))
      let person = try #require(try await store.search("jose").first)
      #expect(person.matchedField == .people)
      #expect(person.snippet == "[José] Álvarez, Zoë")
    }
  }

  @Test("quotes, stars, operators, dashes and brackets are searched as text, never a syntax error")
  func escaping() async throws {
    try await withStore { store, _ in
      for note in searchNotes { try await store.save(note) }
      var odd = makeNote("eeee0001", title: "Re: e-mail AND \"quotes\" (draft) 50% off*")
      odd.transcript = nil
      try await store.save(odd)
      for query in [
        "\"", "*", "AND", "-", "(", ")", "OR", "NOT", "NEAR", "\"budget", "budget\"", "budget*", "-budget", "(budget",
        "title:budget", "{title}", "^budget", "budget AND", "NEAR(budget", "'", "a\"b\"c", "e-mail", "50%",
      ] {
        _ = try await store.search(query)
        for scope in SearchScope.allCases { _ = try await store.search(query, scope: scope) }
      }
      #expect(try await store.search("\"").isEmpty)
      #expect(try await store.search("*").isEmpty)
      #expect(try await store.search("AND quotes").map(\.note.id) == ["eeee0001"])
      #expect(try await store.search("e-mail").map(\.note.id) == ["eeee0001"])
      #expect(try await store.search("(draft)").map(\.note.id) == ["eeee0001"])
      #expect(try await store.search("\"quotes\"").map(\.note.id) == ["eeee0001"])
      #expect(try await store.search("-budget").count == 2)
      await #expect(throws: NoteStoreError.emptyQuery) { try await store.search("  \n ") }
      #expect(NoteStoreError.emptyQuery.localizedDescription.contains("search is empty"))
    }
  }

  @Test("the query builder quotes every word and keeps only words with letters or digits")
  func queryBuilder() throws {
    #expect(try FullTextQuery("mar \"o'neil - *").expression(in: .all) == "\"mar\"* AND \"\"\"o'neil\"*")
    #expect(try FullTextQuery("Lee").expression(in: .actionItems) == "{action_items} : (\"lee\"*)")
    #expect(
      try FullTextQuery("mar b").expression(in: .all) { $0 == "mar" ? ["marcus", "mar", "marathon"] : nil }
        == "(\"mar\" OR \"marcus\" OR \"marathon\") AND \"b\"")
    #expect(try FullTextQuery("( * -").matchesNothing)
    #expect(FullTextQuery.foldedWords("José Álvarez-Núñez, Zoë") == ["jose", "alvarez", "nunez", "zoe"])
    #expect(try FullTextQuery("jo alv").matches("José Álvarez"))
    #expect(try !FullTextQuery("jo bob").matches("José Álvarez"))
  }

  // MARK: - Action items

  @Test("action items are grouped by note, newest first, open ones unless asked for all")
  func actionItemGroups() async throws {
    try await withStore { store, _ in
      for note in searchNotes { try await store.save(note) }
      let open = try await store.actionItems()
      #expect(open.map(\.noteID) == [searchNotes[2].id, searchNotes[1].id])
      #expect(open.map { $0.items.map(\.task) } == [["Book the hotel"], ["Order seeds"]])
      #expect(open[0].noteTitle == "Trip to Lisbon")
      #expect(open[0].noteCreatedAt == searchNotes[2].createdAt)
      let all = try await store.actionItems(includeCompleted: true)
      #expect(all.map { $0.items.map(\.task) } == [["Book the hotel", "Renew passport"], ["Order seeds"]])
    }
  }

  @Test("the person filter ignores case and diacritics and matches the start of names")
  func actionItemPeople() async throws {
    try await withStore { store, _ in
      for note in searchNotes { try await store.save(note) }
      #expect(try await store.actionItems(person: "zoe").map(\.noteID) == [searchNotes[1].id])
      #expect(try await store.actionItems(person: "PRI").flatMap(\.items).map(\.task) == ["Book the hotel"])
      // José is among the note's people but on none of its items.
      #expect(try await store.actionItems(person: "jose").isEmpty)
      #expect(try await store.actionItems(person: "nobody").isEmpty)
      #expect(try await store.actionItems(person: "*").isEmpty)
    }
  }

  @Test("an item is ticked and unticked by a unique id prefix, and the change is saved")
  func toggle() async throws {
    try await withStore { store, library in
      for note in searchNotes { try await store.save(note) }
      let (note, item, changed) = try await store.setCompleted(true, actionItem: "BBBB0002")
      #expect(changed)
      #expect(item.isCompleted && item.task == "Book the hotel")
      #expect(note.id == searchNotes[2].id)
      let reopened = try NoteStore(library: library)
      #expect(try await reopened.actionItems().map(\.noteID) == [searchNotes[1].id])
      #expect(try await reopened.note(id: note.id)?.actionItems.allSatisfy(\.isCompleted) == true)
      #expect(try await reopened.setCompleted(true, actionItem: "bbbb0002").changed == false, "already done")
      #expect(try await reopened.setCompleted(false, actionItem: "bbbb0003").item.isCompleted == false)
      #expect(try await reopened.actionItems().flatMap(\.items).map(\.task) == ["Renew passport", "Order seeds"])
      await #expect(throws: NoteStoreError.actionItemNotFound("ffff")) {
        try await reopened.setCompleted(true, actionItem: "ffff")
      }
      let ambiguous = await #expect(throws: NoteStoreError.self) {
        try await reopened.setCompleted(true, actionItem: "bbbb")
      }
      #expect(
        ambiguous
          == .ambiguousActionItem(
            "bbbb", ["bbbb0001", "bbbb0002", "bbbb0003"].map { $0 + "-0000-4000-8000-00000000000" + $0.suffix(1) }))
    }
  }

  // MARK: - Scale

  @Test("10,000 notes go in quickly and stay searchable")
  func scale() async throws {
    try await withStore { store, _ in
      let clock = ContinuousClock()
      let insert = try await clock.measure {
        try await store.addSampleNotes(count: 10_000, wordsPerNote: 300)
      }
      #expect(try await store.count() == 10_000)
      var latencies: [Duration] = []
      for query in ["marcus", "jo", "budget meeting", "café", "ka", "zoe", "the", "lisbon flight"] {
        for scope in [SearchScope.all, .transcript, .people] {
          latencies.append(try await clock.measure { _ = try await store.search(query, scope: scope) })
        }
      }
      #expect(try await !store.search("marcus").isEmpty)
      let tasks = try await clock.measure { _ = try await store.actionItems(person: "jo") }
      let sorted = latencies.sorted()
      print(
        "NoteStore: 10,000 notes x 300 words inserted in \(insert); search p50 \(sorted[sorted.count / 2]),",
        "max \(sorted.last!); actionItems(person:) \(tasks)")
    }
  }
}
