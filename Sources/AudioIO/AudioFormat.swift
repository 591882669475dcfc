/// The shape of PCM audio: sample rate and channel count, with samples stored as 32-bit floats.
///
/// Mirrors the part of `AVAudioFormat` that speech code uses. Every decoded buffer in this package
/// holds interleaved `Float` samples, so the format needs only a rate and a channel count.
public struct AudioFormat: Hashable, Sendable, CustomStringConvertible {
  /// Frames per second.
  public var sampleRate: Double
  /// Number of interleaved channels, as an `Int` for indexing and arithmetic on sample arrays
  /// (our extension; ``channelCount`` is the same number typed as AVFoundation types it).
  public var channels: Int

  /// Creates a format of `sampleRate` frames per second with `channelCount` interleaved channels.
  public init(sampleRate: Double, channelCount: Int) {
    precondition(sampleRate > 0 && channelCount > 0, "an audio format needs a positive rate and channel count")
    self.sampleRate = sampleRate
    self.channels = channelCount
  }

  /// The number of channels, typed as AVFoundation types it (`AVAudioChannelCount`, a `UInt32`), so
  /// `buffer.frameLength * format.channelCount` and `AVAudioFormat(…, channels: format.channelCount)`
  /// compile as they do on Apple's platforms.
  public var channelCount: AVAudioChannelCount {
    get { AVAudioChannelCount(channels) }
    set { channels = Int(newValue) }
  }

  /// 16 kHz mono: what Whisper, and so the speech analyzer, consumes.
  public static let speechAnalysis = AudioFormat(sampleRate: 16_000, channelCount: 1)

  /// A short readable form, for messages and logs.
  public var description: String {
    let rate = sampleRate.rounded() == sampleRate ? String(Int(sampleRate)) : String(sampleRate)
    return "\(rate) Hz, \(channels == 1 ? "mono" : "\(channels) channels")"
  }
}
