/// The base of AVFoundation's buffer classes: audio in memory with its format.
///
/// On Linux the only concrete kind is ``AVAudioPCMBuffer``; converters and input blocks are typed
/// with this class, as they are on Apple's platforms.
open class AVAudioBuffer: @unchecked Sendable {
  /// The format of the audio the buffer holds.
  public let format: AVAudioFormat

  /// Creates a buffer of `format`; used by subclasses.
  public init(format: AVAudioFormat) {
    self.format = format
  }
}
