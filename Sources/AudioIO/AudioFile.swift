import CFFmpeg
import Foundation

/// An audio file on disk, in any format FFmpeg reads, decoded on demand.
///
/// Plays the role of `AVAudioFile(forReading:)`. Opening reads only the header, so it is cheap
/// and fails early with a clear error for missing, empty and non-audio files; ``read(format:)``
/// decodes the whole stream and resamples it, by default to 16 kHz mono for speech analysis.
///
/// ```swift
/// let file = try AudioFile(forReading: URL(filePath: "memo.m4a"))
/// let buffer = try file.read()   // 16 kHz mono Float samples
/// ```
public struct AudioFile: Sendable {
  /// Where the file lives.
  public let url: URL
  /// The stored format: the file's own sample rate and channel count.
  public let fileFormat: AudioFormat
  /// The container, as FFmpeg names it (for example `wav`, `ogg`, `mov,mp4,m4a,3gp,3g2,mj2`).
  public let containerName: String
  /// The audio codec, as FFmpeg names it (for example `pcm_s16le`, `aac`, `alac`, `opus`).
  public let codecName: String
  /// The duration the container declares, in seconds; decoding gives the exact figure.
  public let duration: Double

  /// The format ``read(format:)`` produces unless told otherwise: 16 kHz mono.
  public var processingFormat: AudioFormat { .speechAnalysis }

  /// The file's length in frames at its own sample rate, as declared by the container.
  public var length: Int64 { Int64((duration * fileFormat.sampleRate).rounded()) }

  /// Opens the file at `url` and reads its header.
  ///
  /// - Throws: ``AudioIOError`` when the file is missing, empty, a folder, or holds no audio.
  public init(forReading url: URL) throws(AudioIOError) {
    let probe = try FFmpegDecoder(url: url)
    self.url = url
    self.fileFormat = probe.sourceFormat
    self.containerName = probe.containerName
    self.codecName = probe.codecName
    self.duration = probe.declaredDuration
  }

  /// Decodes the whole audio stream, mixed and resampled to `format`.
  ///
  /// - Throws: ``AudioIOError/corrupt(path:detail:)`` when no audio can be decoded.
  public func read(format: AudioFormat = .speechAnalysis) throws(AudioIOError) -> AudioBuffer {
    let decoder = try FFmpegDecoder(url: url)
    return try decoder.decode(to: format)
  }

  /// The file extensions this package expects people to use; any format FFmpeg reads also works.
  public static let commonExtensions = ["wav", "flac", "mp3", "ogg", "oga", "opus", "m4a", "mp4", "aac", "caf", "aiff"]
}
