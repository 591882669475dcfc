/// An encoder's or a rate converter's quality, as settings' `AVEncoderAudioQualityKey` takes
/// its raw value. For AAC, Opus and MP3 it sets the bit rate when `AVEncoderBitRateKey` does not:
/// from 24 kbit/s a channel at ``min`` to 96 at ``max``.
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
