import Foundation

/// Reads an audio file a piece at a time, decoded and resampled to one format, so that a long
/// recording never has to be in memory whole.
///
/// Plays the role of reading an `AVAudioFile` into a buffer again and again: each call to
/// ``read(frames:)`` decodes on from where the last one stopped.
///
/// ```swift
/// let reader = try AudioFileReader(file: try AudioFile(forReading: url))
/// while let piece = try reader.read(frames: 16_000 * 30) { consume(piece) }   // 30 s at a time
/// ```
public final class AudioFileReader {
  /// The file being read.
  public let file: AudioFile
  /// The format every piece comes in (by default 16 kHz mono).
  public let format: AudioFormat
  /// Frames returned so far.
  public private(set) var framePosition = 0
  private let decoder: FFmpegDecoder

  /// Opens `file` for reading in `format`.
  ///
  /// - Throws: ``AudioIOError`` when the file can no longer be opened.
  public init(file: AudioFile, format: AudioFormat = .speechAnalysis) throws(AudioIOError) {
    self.file = file
    self.format = format
    decoder = try FFmpegDecoder(url: file.url)
  }

  /// The next `frames` frames (fewer only at the end of the file), or nil once it is all read.
  ///
  /// - Throws: ``AudioIOError/corrupt(path:detail:)`` when the file holds no decodable audio.
  public func read(frames: Int) throws(AudioIOError) -> AudioBuffer? {
    precondition(frames > 0, "read at least one frame")
    guard let samples = try decoder.read(frames: frames, as: format) else { return nil }
    let buffer = AudioBuffer(format: format, samples: samples)
    framePosition += buffer.frameLength
    return buffer
  }
}
