import Foundation

/// Appends PCM audio to a file as it comes, for recorders and files opened for writing: WAV as
/// it is (``WAVWriter``), or encoded (``FFmpegEncoder``).
protocol AudioFileWriter: AnyObject {
  /// Where the file is written.
  var url: URL { get }
  /// The frames handed to ``write(_:)`` so far.
  var framesWritten: Int { get }
  /// Appends `buffer`, in the writer's format.
  func write(_ buffer: AudioBuffer) throws(AudioIOError)
  /// Makes what was written so far safe on disk, as far as the format allows.
  func flush() throws(AudioIOError)
  /// Finishes the file.
  func close() throws(AudioIOError)
}

extension WAVWriter: AudioFileWriter {}
