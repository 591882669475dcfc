import AudioIO
import Foundation
import Synchronization

/// The default microphone, or a file played in real time (`--input`), as 16 kHz mono buffers.
final class CommandAudioSource: Sendable {
  private let inputFile: URL?
  private let microphone = Mutex<MicrophoneCapture?>(nil)
  private let playback = Mutex<AudioFilePlayback?>(nil)

  init(inputFile: URL?) { self.inputFile = inputFile }

  /// Starts the audio; it ends at ``stop()`` or at the end of the file.
  func start() throws -> AsyncThrowingStream<AudioBuffer, any Error> {
    guard let inputFile else {
      let capture = try MicrophoneCapture()
      microphone.withLock { $0 = capture }
      return try capture.start()
    }
    let player = try AudioFilePlayback(url: inputFile, bufferDuration: 0.1)
    playback.withLock { $0 = player }
    return player.start()
  }

  /// Stops capture or playback; what was captured is still delivered.
  func stop() {
    microphone.withLock { $0 }?.stop()
    playback.withLock { $0 }?.stop()
  }
}
