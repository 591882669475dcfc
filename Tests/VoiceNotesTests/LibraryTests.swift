import Foundation
import Synchronization
import TestSupport
import Testing

@testable import VoiceNotes

/// The app core's one entry point: paging, the checks around changes, samples, the event hub,
/// and a language model that is not there (notes still transcribed, analysed later).
@Suite("Library", .serialized)
struct LibraryTests {
  func withLibrary(_ body: (Library) async throws -> Void) async throws {
    let folder = Fixtures.temporaryFolder("library")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = try await Library.open(
      LibraryConfiguration(
        folder: folder.appendingPathComponent("library"), samplesFolder: Fixtures.root.appendingPathComponent("Samples")
      ))
    try await body(library)
  }

  @Test("pages walk every note once, newest first, without transcripts, however deep")
  func paging() async throws {
    try await withLibrary { library in
      try await library.store.addSampleNotes(count: 1_000, wordsPerNote: 20)
      var seen: [VoiceNote] = []
      var page = try await library.page(limit: 128)
      #expect(page.total == 1_000)
      while true {
        seen += page.notes
        guard let next = page.next else { break }
        #expect(NotePage.Cursor(next.description) == next, "the cursor survives a URL")
        page = try await library.page(after: next, limit: 128)
      }
      #expect(seen.count == 1_000)
      #expect(Set(seen.map(\.id)).count == 1_000)
      #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.createdAt >= $1.createdAt })
      #expect(seen.allSatisfy { $0.transcript == nil })
      #expect(try await library.store.summary(id: seen[0].id)?.title == seen[0].title)
    }
  }

  @Test("renames are checked, finished notes cannot be retried, samples are restored once, changes are published")
  func changes() async throws {
    try await withLibrary { library in
      let events = library.events.subscribe()
      let restored = try await library.restoreSamples()
      #expect(restored.imported.count == 3 && restored.alreadyPresent == 0)
      let again = try await library.restoreSamples()
      #expect(again.imported.isEmpty && again.alreadyPresent == 3)
      let note = restored.imported[0]
      await #expect(throws: LibraryError.invalidTitle("the title is empty")) {
        _ = try await library.rename(note.id, to: "  ")
      }
      #expect(try await library.rename(String(note.id.prefix(6)), to: " Trip ").title == "Trip")
      var done = try await library.note(note.id)
      done.processing = ProcessingState(stage: .done)
      try await library.store.save(done)
      await #expect(throws: LibraryError.nothingToRetry(id: note.id)) { _ = try await library.retry(note.id) }
      _ = try await library.delete(note.id)
      var kinds: [String] = []
      for await event in events {
        switch event {
        case .noteChanged(let changed) where changed.title == "Trip": kinds.append("renamed")
        case .noteChanged: kinds.append("changed")
        case .noteDeleted(let id) where id == note.id: kinds.append("deleted")
        default: break
        }
        if kinds.last == "deleted" { break }
      }
      #expect(kinds.filter { $0 == "changed" }.count == 3 && kinds.contains("renamed"), "\(kinds)")
    }
  }

  @Test("another connection's commit moves the external change counter; this one's own do not")
  func externalChanges() async throws {
    try await withLibrary { library in
      let store = library.store
      let before = try await store.externalChangeCounter()
      try await store.save(VoiceNote(duration: 1, audioFileName: "a.wav", originalFileName: "a.wav"))
      #expect(try await store.externalChangeCounter() == before)
      let other = try NoteStore(library: library.configuration.folder)
      try await other.save(VoiceNote(duration: 1, audioFileName: "b.wav", originalFileName: "b.wav"))
      #expect(try await store.externalChangeCounter() != before)
      #expect(try await store.hasNote(originalFileName: "b.wav"))
      #expect(try await !store.hasNote(originalFileName: "c.wav"))
    }
  }
}

/// A note deleted while the pipeline works on it stays deleted.
@Suite("Library: deleting during processing", .serialized)
struct LibraryDeleteTests {
  @Test("a note deleted mid-transcription does not come back, and its audio stays gone")
  func deletedWhileTranscribing() async throws {
    let folder = Fixtures.temporaryFolder("library-delete")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = try await Library.open(
      LibraryConfiguration(folder: folder.appendingPathComponent("library"), languageModel: .tiny))
    let note = try await library.importAudio(from: Fixtures.jfk)
    let deleted = Mutex(false)
    await #expect(throws: PipelineError.deletedWhileProcessing(id: note.id)) {
      try await library.process(note) { progress in
        guard progress.stage == .transcribing, !deleted.withLock({ $0 }) else { return }
        deleted.withLock { $0 = true }
        let semaphore = DispatchSemaphore(value: 0)
        Task {
          _ = try? await library.delete(note.id)
          semaphore.signal()
        }
        semaphore.wait()
      }
    }
    #expect(deleted.withLock { $0 })
    #expect(try await library.store.note(id: note.id) == nil)
    #expect(try FileManager.default.contentsOfDirectory(atPath: library.store.audioFolder.path).isEmpty)
  }
}
