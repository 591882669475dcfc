import AudioIO
import Foundation
import TestSupport
import Testing

@testable import VoiceNotes

/// Recording into the library: the note exists from the first moment, its file is a playable
/// WAV after every buffer, a recording under way is left alone by other processes' pipelines,
/// and one whose process died is finished from the audio written.
@Suite("Recording into the library", .serialized)
struct RecordingTests {
  /// `seconds` of a quiet 440 Hz tone: audio, but no speech.
  func tone(seconds: Double) -> AudioBuffer {
    let samples = (0..<Int(seconds * 16_000)).map { Float(0.1 * sin(2 * .pi * 440 * Double($0) / 16_000)) }
    return AudioBuffer(format: .speechAnalysis, samples: samples)
  }

  @Test("the note is saved at once and its file is playable after every buffer")
  func playableWhileRecording() async throws {
    let folder = Fixtures.temporaryFolder("recording")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try NoteStore(library: folder)
    let pipeline = NotePipeline(store: store)
    let recording = try await pipeline.startRecording(originalFileName: "microphone 'default'")
    let saved = try #require(try await store.note(id: recording.note.id))
    #expect(saved.processing == ProcessingState(stage: .recording))
    #expect(saved.audioFileName == recording.audioURL.lastPathComponent)

    let audio = tone(seconds: 1)
    for (index, first) in stride(from: 0, to: audio.frameLength, by: 320).enumerated() {
      try recording.append(audio.frames(first..<(first + 320)))
      if index % 10 == 9 {
        // Another reader sees a complete WAV of everything appended so far.
        let read = try AudioFile(forReading: recording.audioURL).read()
        #expect(read.frameLength == first + 320)
      }
    }
    #expect(recording.duration == 1)
    #expect(pipeline.isBeingRecorded(saved))
    await #expect(throws: PipelineError.stillRecording(id: saved.id)) { try await pipeline.process(saved) }
    let note = try await recording.finish()
    #expect(note.processing == ProcessingState(stage: .transcribing))
    #expect(note.duration == 1)
    #expect(try await store.note(id: note.id) == note)
    #expect(!pipeline.isBeingRecorded(note))
  }

  @Test("a recording stopped before any audio is done at once, with an empty transcript")
  func emptyRecording() async throws {
    let folder = Fixtures.temporaryFolder("recording-empty")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try NoteStore(library: folder)
    let note = try await NotePipeline(store: store).startRecording(originalFileName: "x").finish()
    #expect(note.processing == ProcessingState(stage: .done))
    #expect(note.transcript?.segments.isEmpty == true)
    #expect(note.duration == 0)
  }

  @Test("a title chosen while recording is kept; a note deleted while recording stays deleted")
  func changesWhileRecording() async throws {
    let folder = Fixtures.temporaryFolder("recording-changes")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try NoteStore(library: folder)
    let pipeline = NotePipeline(store: store)

    let renamed = try await pipeline.startRecording(originalFileName: "x")
    try renamed.append(tone(seconds: 0.5))
    var chosen = try #require(try await store.note(id: renamed.note.id))
    chosen.title = "Standup"
    chosen.hasCustomTitle = true
    try await store.save(chosen)
    let finished = try await renamed.finish()
    #expect(finished.title == "Standup" && finished.hasCustomTitle)
    #expect(finished.duration == 0.5)

    let deleted = try await pipeline.startRecording(originalFileName: "y")
    try deleted.append(tone(seconds: 0.5))
    try await store.delete(id: deleted.note.id)
    await #expect(throws: PipelineError.deletedWhileRecording(id: deleted.note.id)) { try await deleted.finish() }
    #expect(try await store.note(id: deleted.note.id) == nil)
  }

  @Test("another pipeline leaves a live recording alone and finishes one whose process died")
  func resumesADeadRecording() async throws {
    let folder = Fixtures.temporaryFolder("recording-dead")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try NoteStore(library: folder)
    var recording: NoteRecording? = try await NotePipeline(store: store).startRecording(originalFileName: "x")
    let id = try #require(recording?.note.id)
    try recording?.append(tone(seconds: 1.5))

    // As another process would: the recording is live, so it is not touched.
    let other = NotePipeline(store: try NoteStore(library: folder))
    #expect(try await other.resumeUnfinished().processed.isEmpty)
    #expect(try await store.note(id: id)?.processing == ProcessingState(stage: .recording))

    // The recording's owner goes away without finishing (its lock goes with it).
    recording = nil
    let finished = try await other.resumeUnfinished().processed
    #expect(finished.map(\.id) == [id])
    let note = try #require(try await store.note(id: id))
    #expect(abs(note.duration - 1.5) < 0.001, "duration \(note.duration)")
    // A tone holds no speech: an empty transcript, nothing to analyse.
    #expect(note.processing == ProcessingState(stage: .done), "\(note.processing)")
    #expect(note.transcript?.segments.isEmpty == true)
  }
}
