import Foundation

/// Why a file could not be read or written. Each message names the file and says what to do.
public enum AudioIOError: Error, LocalizedError, Equatable, Sendable {
  /// Nothing exists at the path.
  case fileNotFound(path: String)
  /// The file exists but holds zero bytes.
  case emptyFile(path: String)
  /// The path names a directory, not a file.
  case isDirectory(path: String)
  /// FFmpeg recognised no audio container in the file.
  case notAudio(path: String, detail: String)
  /// The container holds no audio stream (a text file, an image, a video without sound).
  case noAudioStream(path: String)
  /// The audio codec has no decoder in this FFmpeg build.
  case unsupportedCodec(path: String, codec: String)
  /// The audio stream could not be decoded into any samples.
  case corrupt(path: String, detail: String)
  /// Writing an audio file failed.
  case writeFailed(path: String, detail: String)
  /// Audio cannot be converted between two formats (the detail names them).
  case unsupportedFormat(String)
  /// An output device could not play audio.
  case playbackFailed(device: String, detail: String)

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .fileNotFound(let path):
      "\(path): no such file; check the path and try again"
    case .emptyFile(let path):
      "\(path): the file is empty (0 bytes); it holds no recording to read"
    case .isDirectory(let path):
      "\(path): is a folder, not an audio file; name the audio files inside it"
    case .notAudio(let path, let detail):
      "\(path): not a recognised audio file (\(detail)); use WAV, FLAC, MP3, Ogg Vorbis, Opus or m4a"
    case .noAudioStream(let path):
      "\(path): contains no audio stream; use WAV, FLAC, MP3, Ogg Vorbis, Opus or m4a"
    case .unsupportedCodec(let path, let codec):
      "\(path): audio codec '\(codec)' cannot be decoded here; convert it to WAV or FLAC first"
    case .corrupt(let path, let detail):
      "\(path): the audio is damaged and could not be decoded (\(detail)); try re-exporting the recording"
    case .writeFailed(let path, let detail):
      "\(path): could not write audio (\(detail)); check the folder exists and has free space"
    case .unsupportedFormat(let detail):
      "\(detail); use a sample rate of 8-192 kHz with 1-8 channels"
    case .playbackFailed(let device, let detail):
      "cannot play through '\(device)' (\(detail)); check the output device (aplay -L lists them)"
    }
  }
}
