import AudioIO
import Foundation
import Synchronization

/// Where the audio comes from: the default microphone, or a file played in real time (`--input`),
/// which goes through exactly the same path afterwards.
final class AudioManager: Sendable {
  private let inputFile: URL?
  private let microphone = Mutex<MicrophoneCapture?>(nil)
  private let playback = Mutex<Task<Void, Never>?>(nil)

  /// Captures from the microphone, or plays `inputFile` when given.
  init(inputFile: URL?) {
    self.inputFile = inputFile
  }

  /// Starts capturing; buffers come in `format` about every 20 ms (100 ms from a file) until
  /// ``stopAudioStream()`` or the end of the file.
  func startAudioStream(format: AudioFormat) throws -> AsyncThrowingStream<AudioBuffer, any Error> {
    if let inputFile { return try play(inputFile, format: format) }
    let capture = try MicrophoneCapture(device: .default, outputFormat: format)
    microphone.withLock { $0 = capture }
    return try capture.start()
  }

  /// Stops capturing; the stream delivers what was captured so far and ends.
  func stopAudioStream() {
    microphone.withLock { $0 }?.stop()
    playback.withLock { $0 }?.cancel()
  }

  /// Hands the file over in 100 ms buffers, each once its time has come, as a microphone would.
  private func play(_ url: URL, format: AudioFormat) throws -> AsyncThrowingStream<AudioBuffer, any Error> {
    let audio = try AudioFile(forReading: url).read(format: format)
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: AudioBuffer.self, throwing: (any Error).self)
    let step = Int(format.sampleRate / 10)
    let task = Task {
      let clock = ContinuousClock()
      let start = clock.now
      for first in stride(from: 0, to: audio.frameLength, by: step) {
        let buffer = audio.frames(first..<(first + step))
        let due = start + .seconds(Double(first + buffer.frameLength) / format.sampleRate)
        guard (try? await Task.sleep(until: due, clock: clock)) != nil else { break }
        continuation.yield(buffer)
      }
      continuation.finish()
    }
    playback.withLock { $0 = task }
    return stream
  }
}
