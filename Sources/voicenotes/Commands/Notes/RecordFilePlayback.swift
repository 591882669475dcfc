import AudioIO
import Foundation
import Synchronization

/// Plays an audio file as if it were being recorded: buffers of 20 ms, each handed over once its
/// last sample has "been spoken", so the file takes as long as it lasts. For demos and tests of
/// the live path without a microphone.
///
/// Like ``MicrophoneCapture``, ``stop()`` delivers everything played up to that moment (to the
/// sample) and ends the stream.
final class RecordFilePlayback: Sendable {
  /// The file played.
  let url: URL
  /// Its audio, decoded to 16 kHz mono.
  let audio: AudioBuffer
  private let playing = Mutex<Task<Void, Never>?>(nil)

  /// Frames handed over at a time: 20 ms, a microphone's period.
  private static let bufferSeconds = 0.02

  /// Decodes the file at `url`, so a missing or damaged file fails before anything is recorded.
  init(url: URL) throws(AudioIOError) {
    self.url = url
    audio = try AudioFile(forReading: url).read(format: .speechAnalysis)
  }

  /// Starts playing from the beginning; the stream ends at the end of the file, after `duration`
  /// seconds, or at ``stop()``.
  func start(forDuration duration: Double? = nil) -> AsyncThrowingStream<AudioBuffer, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: AudioBuffer.self, throwing: (any Error).self)
    let audio = audio
    let rate = audio.format.sampleRate
    let end = min(audio.frameLength, duration.map { Int(($0 * rate).rounded()) } ?? .max)
    let step = Int(Self.bufferSeconds * rate)
    let task = Task {
      let clock = ContinuousClock()
      let start = clock.now
      var sent = 0
      while sent < end {
        let next = min(sent + step, end)
        do {
          try await Task.sleep(until: start + .seconds(Double(next) / rate), clock: clock)
        } catch {
          // Stopped: hand over what has been played so far, and no more.
          let played = min(end, Int(((clock.now - start) / .seconds(1)) * rate))
          if played > sent { continuation.yield(audio.frames(sent..<played)) }
          break
        }
        continuation.yield(audio.frames(sent..<next))
        sent = next
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    playing.withLock { $0 = task }
    return stream
  }

  /// Stops playing: the stream gets the audio played up to now, then ends.
  func stop() {
    playing.withLock { $0 }?.cancel()
  }
}
