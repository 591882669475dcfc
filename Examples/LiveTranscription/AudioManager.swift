import AudioIO
import Foundation
import Synchronization

/// Where the audio comes from: the default microphone, or a file played in real time (`--input`),
/// which goes through exactly the same path afterwards.
final class AudioManager: Sendable {
  private let inputFile: URL?
  private let microphone = Mutex<MicrophoneCapture?>(nil)
  private let playback = Mutex<AudioFilePlayback?>(nil)

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
    playback.withLock { $0 }?.stop()
  }

  /// Hands the file over in 100 ms buffers, each once its time has come, as a microphone would.
  private func play(_ url: URL, format: AudioFormat) throws -> AsyncThrowingStream<AudioBuffer, any Error> {
    let player = try AudioFilePlayback(url: url, format: format, bufferDuration: 0.1)
    playback.withLock { $0 = player }
    return player.start()
  }
}
