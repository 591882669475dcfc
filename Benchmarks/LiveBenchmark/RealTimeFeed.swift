import AudioIO
import Foundation
import SpeechRecognition

/// Hands audio to an analyzer in fixed-size buffers at the pace of speech, as a microphone does:
/// each buffer goes over at the moment its last sample would have been spoken.
struct RealTimeFeed: Sendable {
  /// The input sequence for the analyzer.
  let inputs: AsyncStream<AnalyzerInput>
  private let continuation: AsyncStream<AnalyzerInput>.Continuation
  private let audio: AudioBuffer
  private let frames: Int

  /// A feed of `audio` in buffers of `seconds`.
  init(_ audio: AudioBuffer, seconds: Double) {
    (inputs, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
    self.audio = audio
    frames = max(1, Int(seconds * audio.format.sampleRate))
  }

  /// Starts handing buffers over, the first sample being spoken at `start`; the task ends with
  /// the sequence, returning how late, at most, a buffer went over (in seconds).
  func play(from start: ContinuousClock.Instant) -> Task<Double, Never> {
    let (audio, frames, continuation) = (audio, frames, continuation)
    return Task {
      var latest = 0.0
      for first in stride(from: 0, to: audio.frameLength, by: frames) {
        let last = min(first + frames, audio.frameLength)
        let due = start + .seconds(Double(last) / audio.format.sampleRate)
        try? await Task.sleep(until: due, clock: .continuous)
        latest = max(latest, (ContinuousClock.now - due).seconds)
        continuation.yield(AnalyzerInput(buffer: audio.frames(first..<last)))
      }
      continuation.finish()
      return latest
    }
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
