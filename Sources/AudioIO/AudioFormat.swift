/// The shape of PCM audio: sample rate and channel count, with samples stored as 32-bit floats.
///
/// Mirrors the part of `AVAudioFormat` that speech code uses. Every decoded buffer in this package
/// holds interleaved `Float` samples, so the format needs only a rate and a channel count; an
/// `AVAudioPCMBuffer` may also hold 16- or 32-bit integers (``commonFormat``), converted to and from
/// floats at its edges.
public struct AudioFormat: Hashable, Sendable, CustomStringConvertible {
  /// Frames per second.
  public var sampleRate: Double
  /// Number of interleaved channels, as an `Int` for indexing and arithmetic on sample arrays
  /// (our extension; ``channelCount`` is the same number typed as AVFoundation types it).
  public var channels: Int
  /// How an `AVAudioPCMBuffer` of this format stores its samples: 32-bit floats unless made with
  /// `AVAudioFormat(commonFormat:sampleRate:channels:interleaved:)`.
  public private(set) var commonFormat = CommonFormat.pcmFormatFloat32

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

  /// The same rate and channels with float samples: what this package's ``AudioBuffer`` values hold.
  var floatFormat: AudioFormat { AudioFormat(sampleRate: sampleRate, channelCount: channels) }

  /// A format whose buffers store `commonFormat` samples.
  init(sampleRate: Double, channelCount: Int, commonFormat: CommonFormat) {
    self.init(sampleRate: sampleRate, channelCount: channelCount)
    self.commonFormat = commonFormat
  }

  /// 16 kHz mono: what Whisper, and so the speech analyzer, consumes.
  public static let speechAnalysis = AudioFormat(sampleRate: 16_000, channelCount: 1)

  /// A short readable form, for messages and logs.
  public var description: String {
    let rate = sampleRate.rounded() == sampleRate ? String(Int(sampleRate)) : String(sampleRate)
    let encoding =
      switch commonFormat {
      case .pcmFormatInt16: ", 16-bit integers"
      case .pcmFormatInt32: ", 32-bit integers"
      default: ""
      }
    return "\(rate) Hz, \(channels == 1 ? "mono" : "\(channels) channels")\(encoding)"
  }
}
