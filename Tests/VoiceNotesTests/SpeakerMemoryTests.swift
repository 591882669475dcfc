import Foundation
import LanguageModels
import ModelSupport
import SpeechRecognition
import TestSupport
import Testing

@testable import VoiceNotes

/// A stand-in for the diarization engine, for the logic around it: the turns and voices of a test
/// conversation whose layout is known.
struct KnownTurnsDiarizer: SpeakerDiarizing {
  var diarization: SpeakerDiarization

  func diarize(_ samples: [Float], speakerCount: Int?, progress: @escaping @Sendable (Double) -> Void) async throws
    -> SpeakerDiarization
  {
    progress(0.5)
    progress(1)
    return diarization
  }

  func embedding(of samples: [Float]) async throws -> SpeakerEmbedding { diarization.speakers[0].embedding }
}

/// The speakers stage of the pipeline, the store's speakers and named voices, and the library's
/// calls that name, correct, rename, merge and forget them; the diarizer is a stand-in.
@Suite("Speakers and voice memory", .serialized)
struct SpeakerMemoryTests {
  /// A library folder with its store, a pipeline that diarizes with `diarizer` and cannot analyse
  /// (no language model in an empty models folder), removed after `body`.
  func withLibrary(_ body: (URL, NoteStore) async throws -> Void) async throws {
    let folder = Fixtures.temporaryFolder("speakers")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library", isDirectory: true)
    try await body(library, try NoteStore(library: library))
  }

  func pipeline(_ store: NoteStore, _ diarization: SpeakerDiarization?) -> NotePipeline {
    let noModels = ModelDirectory(url: store.library.deletingLastPathComponent().appendingPathComponent("no-models"))
    return NotePipeline(
      store: store, analyzer: NoteAnalyzer(model: SystemLanguageModel(weights: .default, modelDirectory: noModels)),
      diarizer: diarization.map { KnownTurnsDiarizer(diarization: $0) })
  }

  /// A transcribed note waiting for its speakers: the exchange's transcript over a real recording.
  func transcribedNote(in store: NoteStore) async throws -> VoiceNote {
    let id = UUID().uuidString.lowercased()
    try FileManager.default.copyItem(at: Fixtures.jfk, to: store.audioFolder.appendingPathComponent("\(id).wav"))
    var note = VoiceNote(id: id, duration: 6, audioFileName: "\(id).wav", originalFileName: "meeting.wav")
    note.transcript = SpeakerLabellingTests.exchange.0
    note.processing = ProcessingState(stage: .diarizing)
    try await store.save(note)
    return note
  }

  /// The exchange's diarization with the two voices given.
  func diarization(first: SpeakerEmbedding, second: SpeakerEmbedding) -> SpeakerDiarization {
    let known = SpeakerLabellingTests.exchange.1
    // The diarizer's speaker 1 talks first (Speaker 1), its speaker 0 second (Speaker 2).
    return SpeakerDiarization(
      turns: known.turns,
      speakers: [.init(index: 0, embedding: second, duration: 1.75), .init(index: 1, embedding: first, duration: 4.05)])
  }

  @Test("a note is labelled, a speaker named once is recognised in the next note, and never twice in one")
  func nameOnceRecogniseLater() async throws {
    try await withLibrary { folder, store in
      let priya = SpeakerLabellingTests.voice(0)
      let other = SpeakerLabellingTests.voice(4)
      let first = try await transcribedNote(in: store)
      let done = try await pipeline(store, diarization(first: other, second: priya)).process(first)
      #expect(done.processing.stage == .analyzing, "labelled, then waiting for a language model")
      #expect(done.transcript?.segments.map(\.speaker) == [0, 1, 0])
      #expect(done.speakers.map(\.label) == ["Speaker 1", "Speaker 2"])

      let library = try await Library.open(LibraryConfiguration(folder: folder))
      let named = try await library.nameSpeaker(String(first.id.prefix(8)), speaker: 2, as: "  Priya ")
      #expect(named.speakers.map(\.label) == ["Speaker 1", "Priya"])
      #expect(named.speakers[1].isConfirmed)
      #expect(try await library.voices().map(\.name) == ["Priya"])
      #expect(try await library.voices().first?.noteCount == 1)

      // A new recording: Priya's voice a little different, and someone new. Resumed as after a crash.
      let second = try await transcribedNote(in: store)
      let resumed = try await pipeline(
        store, diarization(first: SpeakerLabellingTests.voice(0, tilt: 0.3), second: other)
      )
      .resumeUnfinished()
      #expect(resumed.failures.isEmpty)
      let recognised = try #require(try await store.note(id: second.id))
      #expect(recognised.speakers.map(\.label) == ["Priya", "Speaker 2"], "the same voice, a different speaker")
      #expect(!recognised.speakers[0].isConfirmed, "an automatic label")
      #expect(try await library.voices().first?.noteCount == 2)

      // Two voices both close to Priya's: only the closer one is Priya.
      let third = try await transcribedNote(in: store)
      let both = try await pipeline(
        store,
        diarization(first: SpeakerLabellingTests.voice(0, tilt: 0.5), second: SpeakerLabellingTests.voice(0, tilt: 0.1))
      ).process(third)
      #expect(both.speakers.map(\.label) == ["Speaker 1", "Priya"])

      // Correcting a wrong automatic label: that speaker is nobody known, and stays so.
      let corrected = try await library.unnameSpeaker(third.id, speaker: 2)
      #expect(corrected.speakers.map(\.label) == ["Speaker 1", "Speaker 2"])
      #expect(corrected.speakers[1].isConfirmed)
      await #expect(throws: LibraryError.speakerNotFound(noteID: third.id, number: 3, count: 2)) {
        _ = try await library.nameSpeaker(third.id, speaker: 3, as: "Omar")
      }
      await #expect(throws: LibraryError.self) {
        _ = try await library.nameSpeaker(third.id, speaker: 1, as: "Speaker 2")
      }
    }
  }

  @Test("naming a second speaker with a name already in the note moves the name; rename, merge and forget")
  func renameMergeForget() async throws {
    try await withLibrary { folder, store in
      let note = try await transcribedNote(in: store)
      _ = try await pipeline(
        store, diarization(first: SpeakerLabellingTests.voice(0), second: SpeakerLabellingTests.voice(4))
      ).process(note)
      let library = try await Library.open(LibraryConfiguration(folder: folder))
      _ = try await library.nameSpeaker(note.id, speaker: 1, as: "Pria")
      let moved = try await library.nameSpeaker(note.id, speaker: 2, as: "pria")
      #expect(moved.speakers.map(\.label) == ["Speaker 1", "Pria"], "one name per note; the name as first typed")

      _ = try await library.nameSpeaker(note.id, speaker: 1, as: "Omar")
      let renamed = try await library.renameVoice("PRIA", to: "Priya")
      #expect(renamed.name == "Priya")
      #expect(try await library.note(note.id).speakers.map(\.label) == ["Omar", "Priya"])
      await #expect(throws: LibraryError.voiceExists(name: "Omar")) {
        _ = try await library.renameVoice("Priya", to: "omar")
      }
      await #expect(throws: LibraryError.voiceNotFound(name: "Nobody")) { _ = try await library.forgetVoice("Nobody") }

      // Merging two voices heard in one note leaves the merged-away speaker unnamed there.
      let merged = try await library.mergeVoice("Omar", into: "Priya")
      #expect(merged.name == "Priya")
      #expect(try await library.voices().map(\.name) == ["Priya"])
      #expect(try await library.note(note.id).speakers.map(\.label) == ["Speaker 1", "Priya"])

      let (forgotten, notes) = try await library.forgetVoice("priya")
      #expect(forgotten.name == "Priya" && notes == 1)
      #expect(try await library.voices().isEmpty)
      #expect(try await library.note(note.id).speakers.map(\.label) == ["Speaker 1", "Speaker 2"])

      // Deleting a note takes its speakers with it.
      _ = try await library.nameSpeaker(note.id, speaker: 1, as: "Omar")
      _ = try await library.delete(note.id)
      #expect(try await library.voices().first?.noteCount == 0)
    }
  }

  @Test("a named voice is pooled from the notes it was confirmed in, not from automatic labels")
  func pooledVoice() async throws {
    try await withLibrary { folder, store in
      let library = try await Library.open(LibraryConfiguration(folder: folder))
      let a = try await transcribedNote(in: store)
      _ = try await pipeline(
        store, diarization(first: SpeakerLabellingTests.voice(0), second: SpeakerLabellingTests.voice(4))
      )
      .process(a)
      _ = try await library.nameSpeaker(a.id, speaker: 1, as: "Priya")
      let before = try #require(try await library.voices().first?.embedding)
      let b = try await transcribedNote(in: store)
      _ = try await pipeline(
        store, diarization(first: SpeakerLabellingTests.voice(0, tilt: 0.4), second: SpeakerLabellingTests.voice(4))
      ).process(b)
      #expect(try await library.voices().first?.embedding == before, "an automatic match does not move the voice")
      _ = try await library.nameSpeaker(b.id, speaker: 1, as: "Priya")
      let after = try #require(try await library.voices().first?.embedding)
      #expect(after != before)
      #expect(after.similarity(to: SpeakerLabellingTests.voice(0)) > 0.95)
      #expect(after.values[1] > 0, "the second recording's voice is in the pool")
    }
  }

  @Test("without a diarizer the stage is skipped: the transcript is kept as it was, no speakers")
  func skippedWithoutDiarizer() async throws {
    try await withLibrary { _, store in
      let note = try await transcribedNote(in: store)
      let done = try await pipeline(store, nil).process(note)
      #expect(done.processing == ProcessingState(stage: .analyzing))
      #expect(done.transcript == note.transcript)
      #expect(done.speakers.isEmpty)
    }
  }

  @Test("a version 2 library gets the speakers tables on opening, its notes unchanged")
  func migration() async throws {
    try await withLibrary { folder, store in
      let note = try await transcribedNote(in: store)
      let database = try SQLiteDatabase(path: store.databaseURL.path)
      try database.execute("DROP TABLE note_speakers; DROP TABLE voices;")
      try database.setUserVersion(2)
      let reopened = try NoteStore(library: folder)
      #expect(try await reopened.note(id: note.id) == note)
      #expect(try database.userVersion == NoteStore.schemaVersion)
      #expect(try await reopened.voices().isEmpty)
    }
  }
}
