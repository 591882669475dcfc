import Foundation
import Synchronization

/// Plays an audio file as if it were being recorded: short buffers (20 ms by default), each handed
/// over once its last sample has "been spoken", so the file takes as long as it lasts. For demos
/// and tests of the live path without a microphone.
///
/// Like ``MicrophoneCapture``, ``stop()`` delivers everything played up to that moment (to the
/// sample) and ends the stream.
public final class AudioFilePlayback: Sendable {
  /// The file played.
  public let url: URL
  /// Its audio, decoded to the format asked for (16 kHz mono by default).
  public let audio: AudioBuffer
  /// Seconds of audio handed over at a time (20 ms is a microphone's period).
  public let bufferDuration: Double
  private let playing = Mutex<Task<Void, Never>?>(nil)

  /// Decodes the file at `url`, so a missing or damaged file fails before anything is played.
  public init(url: URL, format: AudioFormat = .speechAnalysis, bufferDuration: Double = 0.02) throws(AudioIOError) {
    self.url = url
    self.bufferDuration = bufferDuration
    audio = try AudioFile(forReading: url).read(format: format)
  }

  /// Starts playing from the beginning; the stream ends at the end of the file, after `duration`
  /// seconds, or at ``stop()``.
  public func start(forDuration duration: Double? = nil) -> AsyncThrowingStream<AudioBuffer, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: AudioBuffer.self, throwing: (any Error).self)
    let audio = audio
    let rate = audio.format.sampleRate
    let end = min(audio.frameLength, duration.map { Int(($0 * rate).rounded()) } ?? .max)
    let step = max(1, Int(bufferDuration * rate))
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
  public func stop() {
    playing.withLock { $0 }?.cancel()
  }
}
