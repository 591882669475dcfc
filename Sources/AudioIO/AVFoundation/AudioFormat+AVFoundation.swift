import Foundation

/// AVAudioFormat's initializers and properties, for code written against AVFoundation.
extension AudioFormat {
  /// The sample encodings AVFoundation names. `AVAudioPCMBuffer` holds 32-bit floats, 16-bit or
  /// 32-bit integers; the rest of this package works on floats.
  public enum CommonFormat: Int, Sendable {
    /// Not a PCM format AVFoundation knows.
    case otherFormat = 0
    /// 32-bit floating point: what decoding, capture and analysis use.
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

  /// The format a settings dictionary describes (`AVSampleRateKey`, `AVNumberOfChannelsKey`,
  /// `AVLinearPCMIsFloatKey`, `AVLinearPCMBitDepthKey`), as a recorder or a file records it; nil
  /// when the rate or channel count is missing or the format ID is none Core Audio defines. A
  /// compressed format ID gives the 16-bit integer format its audio is encoded from.
  public init?(settings: [String: Any]) {
    guard let asked = try? AudioSettings(settings, for: URL(fileURLWithPath: "settings")) else { return nil }
    let depth = settings[AVLinearPCMBitDepthKey] as? Int
    let integers32 = asked.formatID == kAudioFormatLinearPCM && !asked.storesFloats && depth == 32
    self.init(
      sampleRate: asked.sampleRate, channelCount: asked.channels,
      commonFormat: integers32 ? .pcmFormatInt32 : asked.fileFormat.commonFormat)
  }

  /// The encodings an `AVAudioPCMBuffer` holds.
  static let bufferEncodings: Set<CommonFormat> = [.pcmFormatFloat32, .pcmFormatInt16, .pcmFormatInt32]

  /// A format with the given sample encoding: 32-bit floats, 16-bit or 32-bit integers (a buffer
  /// of it holds those, non-interleaved; `interleaved` is accepted and its buffers are still
  /// per channel). Nil for 64-bit floats and other encodings, or when the rate or channel count is
  /// not positive.
  public init?(
    commonFormat format: CommonFormat, sampleRate: Double, channels: AVAudioChannelCount, interleaved: Bool
  ) {
    guard Self.bufferEncodings.contains(format), sampleRate > 0, channels > 0 else { return nil }
    self.init(sampleRate: sampleRate, channelCount: Int(channels), commonFormat: format)
  }

  /// AVFoundation's settings dictionary for this format (linear PCM of its sample encoding), as
  /// `AVAudioFile(forWriting:settings:)` and recorders take it.
  public var settings: [String: any Sendable] {
    [
      AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: sampleRate, AVNumberOfChannelsKey: channels,
      AVLinearPCMBitDepthKey: commonFormat == .pcmFormatInt16 ? 16 : 32,
      AVLinearPCMIsFloatKey: commonFormat == .pcmFormatFloat32,
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
/// The settings key for an encoder's quality, an ``AVAudioQuality`` raw value.
public let AVEncoderAudioQualityKey = "AVEncoderAudioQualityKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The settings key for an encoder's bit rate in bits a second.
public let AVEncoderBitRateKey = "AVEncoderBitRateKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The settings key for an encoder's bit rate per channel.
public let AVEncoderBitRatePerChannelKey = "AVEncoderBitRatePerChannelKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The settings key for an encoder's bit depth hint.
public let AVEncoderBitDepthHintKey = "AVEncoderBitDepthHintKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The settings key for whether linear PCM samples are big-endian.
public let AVLinearPCMIsBigEndianKey = "AVLinearPCMIsBigEndianKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The settings key for whether linear PCM channels are stored apart.
public let AVLinearPCMIsNonInterleaved = "AVLinearPCMIsNonInterleaved"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The settings key for a sample rate converter's quality, an ``AVAudioQuality`` raw value.
public let AVSampleRateConverterAudioQualityKey = "AVSampleRateConverterAudioQualityKey"

/// Core Audio's four-character code for an audio data format, as settings' `AVFormatIDKey` holds it.
public typealias AudioFormatID = UInt32
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Core Audio's code for linear PCM ('lpcm').
public let kAudioFormatLinearPCM: AudioFormatID = 0x6C70_636D
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Core Audio's code for MPEG-4 AAC ('aac '); FFmpeg's AAC encoder writes it, in MP4 for `.m4a`.
public let kAudioFormatMPEG4AAC: AudioFormatID = 0x6161_6320
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Core Audio's code for MPEG-4 high-efficiency AAC ('aach'); written as AAC-LC, FFmpeg's encoder
/// having no HE profile.
public let kAudioFormatMPEG4AAC_HE: AudioFormatID = 0x6161_6368
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Core Audio's code for Apple Lossless ('alac').
public let kAudioFormatAppleLossless: AudioFormatID = 0x616C_6163
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Core Audio's code for FLAC ('flac').
public let kAudioFormatFLAC: AudioFormatID = 0x666C_6163
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Core Audio's code for Opus ('opus').
public let kAudioFormatOpus: AudioFormatID = 0x6F70_7573
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Core Audio's code for MPEG-1 Layer 3 ('.mp3').
public let kAudioFormatMPEGLayer3: AudioFormatID = 0x2E6D_7033
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Core Audio's code for mu-law ('ulaw').
public let kAudioFormatULaw: AudioFormatID = 0x756C_6177
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Core Audio's code for A-law ('alaw').
public let kAudioFormatALaw: AudioFormatID = 0x616C_6177
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Core Audio's code for IMA 4:1 ADPCM ('ima4').
public let kAudioFormatAppleIMA4: AudioFormatID = 0x696D_6134
