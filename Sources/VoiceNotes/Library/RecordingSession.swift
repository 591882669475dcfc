import AudioIO
import Foundation
import SpeechRecognition

/// A note being recorded through a ``Library``: the audio goes into the library as it comes (see
/// ``NoteRecording``), and to a live transcript when one could be started.
///
/// Any front end feeds it: the command line from the microphone, the web app from the PCM chunks
/// a browser sends. ``finish()`` saves the note's length and hands it to the library's worker.
public actor RecordingSession {
  /// Identifies the session (the note's identifier).
  public nonisolated let id: String
  /// What the audio comes from, for people to recognise.
  public nonisolated let sourceName: String
  private let recording: NoteRecording
  private let live: LiveTranscript?
  private var finished: VoiceNote?
  /// When audio last arrived, to stop sessions whose sender went away.
  public private(set) var lastActivity = ContinuousClock.now

  init(recording: sending NoteRecording, live: LiveTranscript?, sourceName: String) {
    id = recording.note.id
    self.sourceName = sourceName
    self.recording = recording
    self.live = live
  }

  /// The note as saved when recording started.
  public var note: VoiceNote { recording.note }
  /// Whether a live transcript runs alongside.
  public var hasLiveTranscript: Bool { live != nil }
  /// Seconds of audio written so far.
  public var duration: Double { recording.duration }
  /// Whether ``finish()`` has run.
  public var isFinished: Bool { finished != nil }

  /// The format buffers must come in (16 kHz mono).
  public nonisolated var format: AudioFormat { .speechAnalysis }

  /// Appends captured audio, in ``format``, to the note's file and the live transcript.
  ///
  /// - Throws: ``PipelineError/recordingFailed(path:detail:)`` when the file cannot be written,
  ///   or ``LibraryError/recordingFinished(id:)`` after ``finish()``.
  public func append(_ buffer: AudioBuffer) throws {
    guard finished == nil else { throw LibraryError.recordingFinished(id: id) }
    lastActivity = .now
    try recording.append(buffer)
    live?.append(buffer)
  }

  /// Appends 16-bit little-endian mono PCM at 16 kHz, the web app's wire format.
  ///
  /// - Throws: ``LibraryError/invalidAudio(_:)`` for an odd number of bytes, or what
  ///   ``append(_:)`` throws.
  public func appendPCM16(_ data: Data) throws {
    guard data.count % 2 == 0 else {
      throw LibraryError.invalidAudio("a PCM chunk must hold whole 16-bit samples (got \(data.count) bytes)")
    }
    guard !data.isEmpty else { return }
    var samples = [Float](repeating: 0, count: data.count / 2)
    data.withUnsafeBytes { raw in
      for index in samples.indices {
        let value = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))
        samples[index] = Float(value) / 32768
      }
    }
    try append(AudioBuffer(format: format, samples: samples))
  }

  /// Ends the recording: the live transcript's last results come first, then the file is closed
  /// and the note saved with its length, ready for transcription. Calling it again returns the
  /// same note.
  @discardableResult
  public func finish() async throws -> VoiceNote {
    if let finished { return finished }
    await live?.finish()
    let note = try await recording.finish()
    finished = note
    return note
  }
}
