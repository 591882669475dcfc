import Foundation
import LanguageModels
import Synchronization
import TestSupport
import Testing

@testable import VoiceNotes

/// A stand-in embedder for the index's logic: words map to topics through a small table of
/// synonyms ("dental" and "dentist" are one topic), other words to a hashed slot, and a text's
/// vector is its unit-length topic count. Real embeddings are tested in ``RealSemanticSearchTests``.
struct TopicEmbedder: PassageEmbedding {
  static let topics: [String: Int] = [
    "dentist": 0, "dental": 0, "teeth": 0, "tooth": 0, "car": 1, "vehicle": 1, "tire": 1, "oil": 1,
    "budget": 2, "money": 2, "finance": 2, "spending": 2, "garden": 3, "tomatoes": 3, "plant": 3,
  ]
  let modelName = "topics"
  let dimension = 64
  let calls = Counter()

  func embed(_ texts: [String]) async throws -> [[Float]] {
    calls.add(texts.count)
    return texts.map { text in
      var vector = [Float](repeating: 0, count: dimension)
      for word in text.lowercased().split(whereSeparator: { !$0.isLetter }) {
        if let topic = Self.topics[String(word)] {
          vector[topic] += 1
        } else {
          // The same slot in every run: `hashValue` is seeded per process, and its random
          // collisions with a query's words ranked notes differently from run to run.
          let stable = word.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF_FFFF }
          vector[4 + stable % (dimension - 4)] += 0.2
        }
      }
      return TextEmbedder.normalized(vector)
    }
  }
}

/// Counts calls from any task.
final class Counter: Sendable {
  private let value = Mutex(0)
  func add(_ count: Int) { value.withLock { $0 += count } }
  var count: Int { value.withLock { $0 } }
}

@Suite("Semantic index")
struct SemanticIndexTests {
  /// A library of four text notes, indexed with ``TopicEmbedder``.
  private func withIndexedLibrary(_ body: (Library, [VoiceNote]) async throws -> Void) async throws {
    let folder = Fixtures.temporaryFolder("semantic").appendingPathComponent("library", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    let embedder = TopicEmbedder()
    let library = try await Library.open(LibraryConfiguration(folder: folder), embedder: { embedder })
    let texts = [
      "Book a cleaning with the dentist for next Tuesday. My tooth has been sore since the weekend.",
      "The car needs an oil change. The left rear tire keeps losing pressure.",
      "Went over the budget with the finance team. Spending is under control this quarter.",
      "Plant tomatoes near the fence. Ask about a greenhouse for the garden.",
    ]
    var notes: [VoiceNote] = []
    for (index, text) in texts.enumerated() {
      notes.append(
        try await library.store.addTextNote(
          text, createdAt: Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index) * 600), stage: .indexing))
    }
    let result = try await library.resumeUnfinished()
    #expect(result.failures.isEmpty)
    #expect(result.processed.count == 4)
    try await body(library, notes)
  }

  @Test("the index scan finds the same rows as sorting every score")
  func exactNearest() {
    var state: UInt64 = 7
    func random() -> Float {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Float(state >> 40) / Float(1 << 24) - 0.5
    }
    func dot(_ a: [Float], _ b: [Float]) -> Float {
      var sum: Float = 0
      for index in a.indices { sum += a[index] * b[index] }
      return sum
    }
    var index = VectorIndex(dimension: 37)
    var rows: [[Float]] = []
    for _ in 0..<500 {
      let vector = TextEmbedder.normalized((0..<37).map { _ in random() })
      rows.append(vector)
      let added = index.append(vector)
      #expect(added)
    }
    let refused = index.append([1, 2, 3])
    #expect(!refused)
    let query = TextEmbedder.normalized((0..<37).map { _ in random() })
    let scores: [(row: Int, score: Float)] = rows.indices.map { ($0, dot(rows[$0], query)) }
    let expected = scores.sorted { $0.score > $1.score }.prefix(10).map { $0.row }
    let found = index.nearest(to: query, limit: 10)
    #expect(found.map { $0.row } == expected)
    #expect(abs(found[0].score - dot(rows[expected[0]], query)) < 1e-5)
    #expect(index.nearest(to: [1], limit: 3).isEmpty)
  }

  @Test("passages gather whole segments up to the word limit, split at a change of speaker")
  func passages() {
    var note = VoiceNote(duration: 60, audioFileName: "a.wav", originalFileName: "a.wav")
    let words = Array(repeating: "word", count: 20).joined(separator: " ")
    note.transcript = Transcript(
      duration: 60,
      segments: [
        .init(text: words, start: 0, end: 5, speaker: 0), .init(text: words, start: 5, end: 10, speaker: 0),
        .init(text: words, start: 10, end: 15, speaker: 0), .init(text: "Yes.", start: 15, end: 16, speaker: 1),
      ])
    note.summary = "A summary."
    note.actionItems = [NoteActionItem(task: "Call Priya"), NoteActionItem(task: "  ")]
    let passages = NotePassage.passages(of: note)
    #expect(passages.map(\.kind) == [.transcript, .transcript, .transcript, .summary, .actionItem])
    #expect(passages.map(\.start) == [0, 10, 15, 0, 0])
    #expect(passages[0].end == 10)
    #expect(passages[0].text.split(separator: " ").count == 40)
    #expect(passages.map(\.index) == [0, 1, 2, 3, 4])
  }

  @Test("a search by meaning finds what keyword search cannot, and opens at the passage")
  func meaningAndKeyword() async throws {
    try await withIndexedLibrary { library, notes in
      #expect(try await library.defaultSearchMode() == .hybrid)
      #expect(try await library.search("dental appointment", mode: .keyword).isEmpty)
      let semantic = try await library.search("dental appointment", mode: .semantic)
      #expect(semantic.first?.note.id == notes[0].id)
      #expect(semantic.first?.time == 0)
      #expect(semantic.first?.matchedField == .transcript)
      let hybrid = try await library.search("vehicle tire")
      #expect(hybrid.first?.note.id == notes[1].id)
      // A word only keyword search knows (no topic) still finds its note in hybrid mode.
      let greenhouse = try await library.search("greenhouse")
      #expect(greenhouse.map(\.note.id).contains(notes[3].id))
      #expect(greenhouse.first { $0.note.id == notes[3].id }?.time != nil)
    }
  }

  @Test("a question finds notes by any of its telling words when no note holds them all")
  func anyWord() async throws {
    try await withIndexedLibrary { library, notes in
      let question = "when will the greenhouse be ready?"
      #expect(try await library.search(question, mode: .keyword).isEmpty)
      let some = try await library.store.search(question, matchingAnyWord: true)
      #expect(some.map(\.note.id) == [notes[3].id])
      let hybrid = try await library.search(question, mode: .hybrid)
      #expect(hybrid.first?.note.id == notes[3].id)
      // Stop words alone still search (for all of them): "the" is in every note here.
      let common = try await library.store.search("the", matchingAnyWord: true)
      #expect(common.count == 4)
    }
  }

  @Test("hybrid search fuses only the notes with some of a question's words that score near the best")
  func nearBest() async throws {
    try await withIndexedLibrary { _, notes in
      let results = zip(notes, [9.0, 5.0, 4.0, 0.5]).map { note, score in
        SearchResult(note: note, score: score, matchedField: .transcript, snippetRuns: [], time: nil)
      }
      #expect(Library.nearBest(results).map(\.note.id) == [notes[0].id, notes[1].id])
      #expect(Library.nearBest([]).isEmpty)
    }
  }

  @Test("scopes limit the passages, and meaning is not searched in titles")
  func scopes() async throws {
    try await withIndexedLibrary { library, _ in
      let summaries = try await library.search("money", scope: .summary, mode: .semantic)
      #expect(summaries.isEmpty)
      let titleMode = try await library.defaultSearchMode(scope: .title)
      #expect(titleMode == .keyword)
      await #expect(throws: LibraryError.semanticScope("Title")) {
        try await library.search("money", scope: .title, mode: .semantic)
      }
    }
  }

  @Test("related notes come from the note's centroid, never the note itself")
  func related() async throws {
    try await withIndexedLibrary { library, notes in
      let related = try await library.relatedNotes(to: notes[0].id)
      #expect(!related.contains { $0.note.id == notes[0].id })
      #expect(try await library.relatedNotes(to: "no-such-note").isEmpty)
    }
  }

  @Test("deleting a note removes its passages and its centroid")
  func lifecycle() async throws {
    try await withIndexedLibrary { library, notes in
      #expect(try await library.store.indexedNoteCount(model: "topics") == 4)
      #expect(try await library.store.passages(ofNote: notes[1].id).count == 1)
      _ = try await library.delete(notes[1].id)
      #expect(try await library.store.indexedNoteCount(model: "topics") == 3)
      #expect(try await library.store.passages(ofNote: notes[1].id).isEmpty)
      #expect(try await library.search("vehicle", mode: .semantic).allSatisfy { $0.note.id != notes[1].id })
    }
  }

  @Test("every change to a note's index moves the version the cached centroids are checked against")
  func indexVersion() async throws {
    try await withIndexedLibrary { library, notes in
      let store = library.store
      let start = try await store.passageIndexVersion()
      #expect(try await library.search("vehicle", mode: .semantic).first?.note.id == notes[1].id)
      let passage = NotePassage(noteID: notes[1].id, index: 0, kind: .transcript, start: 0, end: 5, text: "tomatoes")
      let garden = try await TopicEmbedder().embed(["tomatoes greenhouse garden"])
      try await store.savePassages([passage], vectors: garden, model: "topics", of: notes[1].id)
      let afterSave = try await store.passageIndexVersion()
      #expect(afterSave > start)
      #expect(try await library.search("vehicle", mode: .semantic).allSatisfy { $0.note.id != notes[1].id })
      _ = try await library.delete(notes[2].id)
      #expect(try await store.passageIndexVersion() > afterSave)
      let unchanged = try await store.passageIndexVersion()
      _ = try await library.search("garden", mode: .semantic)
      #expect(try await store.passageIndexVersion() == unchanged)
    }
  }

  @Test("finished notes without an index are indexed by the next resume, once")
  func catchUp() async throws {
    let folder = Fixtures.temporaryFolder("semantic-catch-up").appendingPathComponent("library", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    let plain = try await Library.open(LibraryConfiguration(folder: folder), embedder: { nil })
    let note = try await plain.store.addTextNote(
      "The dentist moved my appointment.", createdAt: Date(timeIntervalSinceReferenceDate: 800_000_000),
      stage: .indexing)
    _ = try await plain.resumeUnfinished()
    #expect(try await plain.store.note(id: note.id)?.processing.stage == .done)
    await #expect(throws: LibraryError.semanticIndexUnavailable) {
      try await plain.search("teeth", mode: .semantic)
    }
    #expect(try await plain.defaultSearchMode() == .keyword)

    let embedder = TopicEmbedder()
    let indexed = try await Library.open(LibraryConfiguration(folder: folder), embedder: { embedder })
    await #expect(throws: LibraryError.semanticIndexEmpty) { try await indexed.search("teeth", mode: .semantic) }
    #expect(try await indexed.semanticIndex.coverage() == (indexed: 0, missing: 1))
    #expect(try await indexed.resumeUnfinished().indexed == 1)
    #expect(try await indexed.resumeUnfinished().indexed == 0)
    #expect(embedder.calls.count == 1)
    #expect(try await indexed.search("teeth", mode: .semantic).first?.note.id == note.id)
  }

  @Test("a version 3 library gets the index tables on opening, its notes unchanged")
  func migration() async throws {
    let folder = Fixtures.temporaryFolder("semantic-migration").appendingPathComponent("library", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    let store = try NoteStore(library: folder)
    let note = try await store.addTextNote("Call the bank.", createdAt: Date(), stage: .done)
    let database = try SQLiteDatabase(path: store.databaseURL.path)
    try database.execute("DROP TABLE note_passages; DROP TABLE note_vectors;")
    try database.setUserVersion(3)
    let reopened = try NoteStore(library: folder)
    #expect(try await reopened.note(id: note.id) == note)
    #expect(try database.userVersion == NoteStore.schemaVersion)
    #expect(try await reopened.notesNeedingPassages(model: "topics") == [note.id])
    let version = try await reopened.passageIndexVersion()
    try await reopened.savePassages(
      [NotePassage(noteID: note.id, index: 0, kind: .transcript, start: 0, end: 2, text: "Call the bank.")],
      vectors: [[1, 0]], model: "topics", of: note.id)
    #expect(try await reopened.passageIndexVersion() == version + 1)
  }
}
