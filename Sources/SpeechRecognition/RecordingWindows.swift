import AudioIO
import Foundation

/// Cuts a recording into windows of at most ``limit`` samples as it is read from its file, each
/// ending in a pause, so a file of any length is analysed with the memory of one window.
///
/// A recording no longer than the limit is one window, read whole. A longer one is cut in the
/// longest pause of each window's second half, found by voice-activity detection (the same rule
/// as the pieces sent to a transcription server, ``TranscriptionChunkPlan``); the silence around
/// a cut is left out.
final class RecordingWindows {
  /// A stretch of the recording to analyse.
  struct Window {
    /// Where the window starts in the recording, in samples.
    var start: Int
    /// Its audio, 16 kHz mono.
    var audio: AudioBuffer
  }

  /// The longest window by default: five minutes of 16 kHz audio. A note of up to five minutes is
  /// one window; a longer recording takes the memory of one such window, whatever its length.
  ///
  /// Every cut costs speed: Whisper starts the window after it without the text before as
  /// context, so its first sentence is more often unsure and decoded again, and the window's last
  /// 30 s is mostly padding. Ten minutes of speech took 20% longer to transcribe in 150 s
  /// windows than in one piece, and 5% longer in 300 s windows (at 33 MB more memory).
  static let standardLimit = 300 * 16_000
  /// Samples read from the file at a time, a whole number of voice-activity windows (about 16 s).
  static let readSize = VoiceActivityDetector.windowSize * 512

  /// The longest window, in samples: a whole number of voice-activity windows.
  let limit: Int
  private let reader: AudioFileReader
  private let voiceActivityModelPath: String
  private var detector: VoiceActivityDetector?
  /// The audio read but not yet handed out, starting at `carryStart` in the recording.
  private var carry: [Float]
  private var carryStart = 0
  /// The probability of speech in each voice-activity window of `carry` judged so far.
  private var probabilities: [Float] = []
  private var isAtEnd = false

  /// Windows of the recording `reader` reads, `first` being what was already read from it; long
  /// recordings are cut with the Silero model at `voiceActivityModelPath` into windows of at most
  /// `limit` samples (rounded down to whole voice-activity windows, at least two).
  init(
    reader: AudioFileReader, first: AudioBuffer?, voiceActivityModelPath: String, limit: Int = standardLimit
  ) {
    let windowSize = VoiceActivityDetector.windowSize
    self.limit = max(limit / windowSize, 2) * windowSize
    self.reader = reader
    self.voiceActivityModelPath = voiceActivityModelPath
    carry = first?.samples ?? []
    isAtEnd = first == nil
  }

  /// The next window, or nil when the recording is done.
  ///
  /// - Throws: `AudioIOError` when the file cannot be decoded further;
  ///   ``SpeechTranscriptionError/voiceActivityModelMissing(path:)`` when a recording longer than
  ///   one window is to be cut and the voice-activity model is not installed.
  func next() async throws -> Window? {
    while !isAtEnd, carry.count <= limit {
      if let piece = try reader.read(frames: Self.readSize) {
        carry += piece.samples
      } else {
        isAtEnd = true
      }
    }
    guard !carry.isEmpty else { return nil }
    guard carry.count > limit else {
      defer {
        carryStart += carry.count
        carry = []
        probabilities = []
      }
      return Window(start: carryStart, audio: AudioBuffer(format: .speechAnalysis, samples: carry))
    }
    try await judgeCarry()
    let probabilities = probabilities
    let windowSize = VoiceActivityDetector.windowSize
    let cut = TranscriptionChunkPlan.cut(from: 0, limit: limit, windowSize: windowSize) { index in
      probabilities.indices.contains(index) ? probabilities[index] : 0
    }
    // The window keeps the buffer read into, cut short; only the rest (less than half) is copied
    // into a fresh carry. Copying the window out instead would hold a second window's worth of
    // audio while it is transcribed.
    let rest = Array(carry[cut.next...])
    carry.removeSubrange(cut.end...)
    let window = Window(start: carryStart, audio: AudioBuffer(format: .speechAnalysis, samples: carry))
    carry = rest
    self.probabilities.removeFirst(min(cut.next / windowSize, probabilities.count))
    carryStart += cut.next
    return window
  }

  /// Judges the whole voice-activity windows of `carry` not yet judged.
  private func judgeCarry() async throws {
    let windowSize = VoiceActivityDetector.windowSize
    let judged = probabilities.count * windowSize
    let whole = carry.count / windowSize * windowSize
    guard whole > judged else { return }
    let detector = try self.detector ?? makeDetector()
    self.detector = detector
    probabilities += try await detector.speechProbabilities(Array(carry[judged..<whole]))
  }

  private func makeDetector() throws -> VoiceActivityDetector {
    guard FileManager.default.fileExists(atPath: voiceActivityModelPath) else {
      throw SpeechTranscriptionError.voiceActivityModelMissing(path: voiceActivityModelPath)
    }
    return try VoiceActivityDetector(modelPath: voiceActivityModelPath)
  }
}
