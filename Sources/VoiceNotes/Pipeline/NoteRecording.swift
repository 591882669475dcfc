import AudioIO
import Foundation

/// A note being recorded: its audio goes into the library as it arrives, so a process that dies
/// mid-recording loses at most the last moments.
///
/// ``NotePipeline/startRecording(originalFileName:format:createdAt:)`` creates the WAV file in the
/// library's `audio/` folder and saves the note at once, in the
/// ``ProcessingState/Stage/recording`` stage. Each ``append(_:)`` goes straight to the file and
/// updates its header, so the file is a playable WAV at every moment; it is forced to disk at least
/// once a second. ``finish()`` sets the note's length and hands it on to transcription.
///
/// While recording, the file is locked (`flock`), which is how other processes tell a recording
/// under way from one whose process died: the pipeline finishes the latter from the audio written.
///
/// ```swift
/// let recording = try await pipeline.startRecording(originalFileName: "Microphone")
/// for try await buffer in microphone.start() { try recording.append(buffer) }
/// let note = try await recording.finish()
/// try await pipeline.process(note)
/// ```
///
/// One task appends and finishes; the type is not safe to share between tasks.
public final class NoteRecording {
  /// The note as stored: in the recording stage until ``finish()``.
  public private(set) var note: VoiceNote
  /// The audio file in the library.
  public let audioURL: URL
  private let writer: WAVWriter
  private let store: NoteStore
  private let lock: LibraryLock
  private let clock = ContinuousClock()
  private var lastFlush: ContinuousClock.Instant
  private var isFinished = false

  init(note: VoiceNote, audioURL: URL, writer: WAVWriter, store: NoteStore, lock: LibraryLock) {
    self.note = note
    self.audioURL = audioURL
    self.writer = writer
    self.store = store
    self.lock = lock
    lastFlush = clock.now
  }

  /// The format buffers must come in: the file's.
  public var format: AudioFormat { writer.format }

  /// Seconds of audio written so far.
  public var duration: Double { Double(writer.framesWritten) / writer.format.sampleRate }

  /// Appends `buffer`, which must be in ``format``, to the file, and forces the file to disk when
  /// a second has passed since the last time.
  ///
  /// - Throws: ``PipelineError/recordingFailed(path:detail:)`` when the file cannot be written
  ///   (a full disk); what was written before stays in the file.
  public func append(_ buffer: AudioBuffer) throws(PipelineError) {
    guard !isFinished, buffer.frameLength > 0 else { return }
    do {
      try writer.write(buffer)
      if clock.now - lastFlush >= .seconds(1) {
        try writer.flush()
        lastFlush = clock.now
      }
    } catch {
      throw .recordingFailed(path: audioURL.path, detail: error.errorDescription ?? "\(error)")
    }
  }

  /// Closes the file, sets the note's length and moves it on to transcription (straight to done,
  /// with an empty transcript, when nothing was recorded); returns the note as saved.
  ///
  /// A title chosen while recording is kept. The note is saved even when closing the file fails
  /// (that error is thrown afterwards). If saving fails, the note stays in the recording stage and
  /// the next start finishes it.
  ///
  /// - Throws: ``PipelineError/deletedWhileRecording(id:)`` when someone deleted the note (and so
  ///   its audio) meanwhile; it stays deleted.
  @discardableResult
  nonisolated(nonsending) public func finish() async throws -> VoiceNote {
    guard !isFinished else { return note }
    isFinished = true
    defer { lock.release() }
    var closing: AudioIOError?
    do {
      try writer.close()
    } catch {
      closing = error
    }
    guard let stored = try await store.note(id: note.id) else { throw PipelineError.deletedWhileRecording(id: note.id) }
    if stored.hasCustomTitle {
      note.title = stored.title
      note.hasCustomTitle = true
    }
    NotePipeline.markRecorded(&note, duration: duration)
    try await store.save(note)
    if let closing {
      throw PipelineError.recordingFailed(path: audioURL.path, detail: closing.errorDescription ?? "\(closing)")
    }
    return note
  }
}
