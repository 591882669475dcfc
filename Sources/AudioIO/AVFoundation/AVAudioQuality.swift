/// An encoder's or a rate converter's quality, as settings' `AVEncoderAudioQualityKey` takes
/// its raw value. Accepted for compatibility: recordings here are stored uncompressed.
public enum AVAudioQuality: Int, Sendable {
  /// The lowest quality.
  case min = 0
  /// Low quality.
  case low = 0x20
  /// Medium quality.
  case medium = 0x40
  /// High quality.
  case high = 0x60
  /// The highest quality.
  case max = 0x7F
}
