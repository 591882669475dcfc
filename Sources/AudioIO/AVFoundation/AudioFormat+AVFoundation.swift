/// AVAudioFormat's initializers and properties, for code written against AVFoundation.
extension AudioFormat {
  /// The sample encodings AVFoundation names; this package holds every buffer as 32-bit floats.
  public enum CommonFormat: Int, Sendable {
    /// Not a PCM format AVFoundation knows.
    case otherFormat = 0
    /// 32-bit floating point: the only encoding buffers here use.
    case pcmFormatFloat32 = 1
    /// 64-bit floating point.
    case pcmFormatFloat64 = 2
    /// 16-bit signed integers.
    case pcmFormatInt16 = 3
    /// 32-bit signed integers.
    case pcmFormatInt32 = 4
  }

  /// Apple's standard format: 32-bit float samples at `sampleRate` with `channels` channels.
  ///
  /// Failable, as Apple's is: nil when the rate is not positive, or the channel count is 0 or more
  /// than 2 (Apple asks for a channel layout beyond stereo).
  public init?(standardFormatWithSampleRate sampleRate: Double, channels: AVAudioChannelCount) {
    guard sampleRate > 0, (1...2).contains(channels) else { return nil }
    self.init(sampleRate: sampleRate, channelCount: Int(channels))
  }

  /// A format with the given sample encoding; nil unless it is `.pcmFormatFloat32` (on Linux every
  /// buffer holds floats: convert integer audio when you read or write it), or when the rate or
  /// channel count is not positive.
  public init?(
    commonFormat format: CommonFormat, sampleRate: Double, channels: AVAudioChannelCount, interleaved: Bool
  ) {
    guard format == .pcmFormatFloat32, sampleRate > 0, channels > 0 else { return nil }
    self.init(sampleRate: sampleRate, channelCount: Int(channels))
  }

  /// The sample encoding: always `.pcmFormatFloat32` here.
  public var commonFormat: CommonFormat { .pcmFormatFloat32 }

  /// AVFoundation's settings dictionary for this format (linear PCM, 32-bit float), as
  /// `AVAudioFile(forWriting:settings:)` and recorders take it.
  public var settings: [String: any Sendable] {
    [
      AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: sampleRate, AVNumberOfChannelsKey: channels,
      AVLinearPCMBitDepthKey: 32, AVLinearPCMIsFloatKey: true,
    ]
  }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The settings key for the audio data format (`kAudioFormatLinearPCM` for PCM).
public let AVFormatIDKey = "AVFormatIDKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The settings key for the sample rate, a Double.
public let AVSampleRateKey = "AVSampleRateKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The settings key for the channel count, an Int.
public let AVNumberOfChannelsKey = "AVNumberOfChannelsKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The settings key for the bits per linear PCM sample.
public let AVLinearPCMBitDepthKey = "AVLinearPCMBitDepthKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The settings key for whether linear PCM samples are floating point.
public let AVLinearPCMIsFloatKey = "AVLinearPCMIsFloatKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Core Audio's code for linear PCM ('lpcm').
public let kAudioFormatLinearPCM: UInt32 = 0x6C70_636D
