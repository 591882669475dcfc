import AudioIO
import Foundation
import Synchronization

/// The default microphone, or a file played in real time (`--input`), as 16 kHz mono buffers.
final class CommandAudioSource: Sendable {
  private let inputFile: URL?
  private let microphone = Mutex<MicrophoneCapture?>(nil)
  private let playback = Mutex<Task<Void, Never>?>(nil)

  init(inputFile: URL?) { self.inputFile = inputFile }

  /// Starts the audio; it ends at ``stop()`` or at the end of the file.
  func start() throws -> AsyncThrowingStream<AudioBuffer, any Error> {
    guard let inputFile else {
      let capture = try MicrophoneCapture()
      microphone.withLock { $0 = capture }
      return try capture.start()
    }
    let audio = try AudioFile(forReading: inputFile).read(format: .speechAnalysis)
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: AudioBuffer.self, throwing: (any Error).self)
    let step = 1_600
    let task = Task {
      let clock = ContinuousClock()
      let start = clock.now
      for first in stride(from: 0, to: audio.frameLength, by: step) {
        let buffer = audio.frames(first..<(first + step))
        let due = start + .seconds(Double(first + buffer.frameLength) / 16_000)
        guard (try? await Task.sleep(until: due, clock: clock)) != nil else { break }
        continuation.yield(buffer)
      }
      continuation.finish()
    }
    playback.withLock { $0 = task }
    return stream
  }

  /// Stops capture or playback; what was captured is still delivered.
  func stop() {
    microphone.withLock { $0 }?.stop()
    playback.withLock { $0 }?.cancel()
  }
}
