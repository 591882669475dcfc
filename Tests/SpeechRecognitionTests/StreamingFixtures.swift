import AudioIO
import Foundation
import SpeechRecognition
import TestSupport
import Testing

/// Real speech laid out for the live tests: the LibriVox utterances and jfk.wav joined with
/// pauses, written to a WAV file and read back, so the file and live paths hear the same samples.
struct SpokenPassage {
  /// One recording inside the passage.
  struct Piece {
    /// Where the recording lies in the passage, in samples.
    var range: Range<Int>
    /// Where its speech begins and ends, by energy (the recordings' own quiet edges left out).
    var speech: Range<Int>
    /// What it says.
    var reference: String
  }

  static let sampleRate = 16_000

  let file: URL
  let audio: AudioBuffer
  let pieces: [Piece]

  var samples: [Float] { audio.samples }
  /// What the whole passage says.
  var reference: String { pieces.map(\.reference).joined(separator: " ") }
  /// The frames of 20 ms, as sample ranges, that carry speech (by energy) in some piece.
  var loudFrames: [Range<Int>] { pieces.flatMap { Self.loudFrames(in: samples, range: $0.range) } }

  /// Joins `recordings` (16 kHz files with their transcripts) with `pause` seconds of silence
  /// before, between and after them, into a WAV file in `folder`.
  static func make(
    _ recordings: [(audio: URL, reference: String)], pause: Double = 1.5, in folder: URL
  ) throws -> SpokenPassage {
    let gap = [Float](repeating: 0, count: Int(pause * Double(sampleRate)))
    var joined = gap
    for recording in recordings {
      joined += try AudioFile(forReading: recording.audio).read(format: .speechAnalysis).samples
      joined += gap
    }
    let file = folder.appendingPathComponent("passage.wav")
    try WAVWriter.write(AudioBuffer(format: .speechAnalysis, samples: joined), to: file)
    let audio = try AudioFile(forReading: file).read(format: .speechAnalysis)
    var pieces: [Piece] = []
    var position = gap.count
    for recording in recordings {
      let count = try AudioFile(forReading: recording.audio).read(format: .speechAnalysis).frameLength
      let range = position..<(position + count)
      let loud = loudFrames(in: audio.samples, range: range)
      let speech = (loud.first?.lowerBound ?? range.lowerBound)..<(loud.last?.upperBound ?? range.upperBound)
      pieces.append(Piece(range: range, speech: speech, reference: recording.reference))
      position += count + gap.count
    }
    return SpokenPassage(file: file, audio: audio, pieces: pieces)
  }

  /// The LibriVox utterances and jfk.wav: about 45 s with the pauses.
  static func standard(in folder: URL) throws -> SpokenPassage {
    let librivox = Fixtures.librivox
    try #require(librivox.count == 5, "pocketsphinx-testdata is missing; run make deps")
    return try make(librivox + [(Fixtures.jfk, Fixtures.jfkText)], in: folder)
  }

  /// 20 ms frames of `range` louder than a tenth of the loudest frame there.
  static func loudFrames(in samples: [Float], range: Range<Int>) -> [Range<Int>] {
    let size = sampleRate / 50
    let frames = stride(from: range.lowerBound, to: range.upperBound - size, by: size).map { $0..<($0 + size) }
    let energies = frames.map { frame in (samples[frame].reduce(Float(0)) { $0 + $1 * $1 } / Float(size)).squareRoot() }
    let loudest = energies.max() ?? 0
    return zip(frames, energies).filter { $0.1 > loudest / 10 }.map(\.0)
  }
}

/// Feeds audio to an analyzer as ``AnalyzerInput`` buffers, as a microphone would.
struct LiveFeed: Sendable {
  /// The input sequence for the analyzer.
  let inputs: AsyncStream<AnalyzerInput>
  /// When each buffer was handed over; ends once the last one is.
  let handedOver: Task<[ContinuousClock.Instant], Never>
  /// Frames per buffer.
  let frames: Int

  /// Feeds `audio` in buffers of `seconds`, `speed` times faster than real time (nil: as fast as
  /// the analyzer takes them), then finishes the sequence. `startTimes` gives every buffer its
  /// `bufferStartTime`, shifted by `offset`.
  init(
    _ audio: AudioBuffer, seconds: Double = 0.1, speed: Double? = 1, startTimes: Bool = false, offset: Double = 0
  ) {
    let (inputs, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
    let frames = Int(seconds * audio.format.sampleRate)
    self.inputs = inputs
    self.frames = frames
    handedOver = Task {
      let clock = ContinuousClock()
      let start = clock.now
      var instants: [ContinuousClock.Instant] = []
      for (index, first) in stride(from: 0, to: audio.frameLength, by: frames).enumerated() {
        if let speed {
          try? await Task.sleep(until: start + .seconds(Double(index) * seconds / speed), clock: clock)
        }
        let time =
          startTimes
          ? CMTime(seconds: offset + Double(first) / audio.format.sampleRate, preferredTimescale: 48_000) : nil
        continuation.yield(AnalyzerInput(buffer: audio.frames(first..<(first + frames)), bufferStartTime: time))
        instants.append(clock.now)
      }
      continuation.finish()
      return instants
    }
  }
}

/// Everything a module published, with when it arrived.
struct Arrivals<Result: Sendable>: Sendable {
  var results: [(result: Result, instant: ContinuousClock.Instant)] = []

  /// Collects `stream` until it ends.
  static func collect(_ stream: AsyncThrowingStream<Result, any Error>) -> Task<Arrivals, any Error> {
    Task {
      var arrivals = Arrivals()
      for try await result in stream { arrivals.results.append((result, ContinuousClock.now)) }
      return arrivals
    }
  }
}

extension SpeechTranscriber.Result {
  /// The text as a plain string.
  var plainText: String { String(text.characters) }
}

/// The median of `values`, or nil when there are none.
func median(_ values: [Double]) -> Double? {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return nil }
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Seconds of CPU time this process has used (user and system), for real-time factors.
func processorSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
  let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  return user + system
}
