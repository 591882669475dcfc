import AudioIO
import Foundation

/// Where `voicenotes record` takes its audio from: a microphone, or a file played in real time
/// through the same path. Either way the buffers come as 16 kHz mono.
enum RecordInput: Sendable {
  /// An ALSA capture device.
  case microphone(MicrophoneCapture)
  /// A file played at real-time pace.
  case file(AudioFilePlayback)

  /// Opens the file at `path`, or else checks the device named `device` (the default input when
  /// nil), so that a bad file or device fails before a note is made.
  static func open(file path: String?, device: String?) throws -> RecordInput {
    if let path {
      return .file(try AudioFilePlayback(url: URL(fileURLWithPath: path)))
    }
    do {
      return .microphone(try MicrophoneCapture(device: device.map { AudioInputDevice(name: $0) } ?? .default))
    } catch {
      throw RecordError.microphone(error)
    }
  }

  /// What the note's audio came from, for people to recognise: the file's name, or the device's.
  var sourceName: String {
    switch self {
    case .microphone(let capture): "microphone '\(capture.device.name)'"
    case .file(let playback): playback.url.lastPathComponent
    }
  }

  /// Starts delivering audio; the stream ends after `duration` seconds (when given), at the end
  /// of a file, or after ``stop()``, having delivered everything up to that moment.
  func start(forDuration duration: Double?) throws -> AsyncThrowingStream<AudioBuffer, any Error> {
    switch self {
    case .microphone(let capture):
      do {
        return try capture.start(forDuration: duration)
      } catch {
        throw RecordError.microphone(error)
      }
    case .file(let playback):
      return playback.start(forDuration: duration)
    }
  }

  /// Stops: what was captured (or played) up to now is still delivered, then the stream ends.
  func stop() {
    switch self {
    case .microphone(let capture): capture.stop()
    case .file(let playback): playback.stop()
    }
  }
}
