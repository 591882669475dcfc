import Foundation

/// What an AVFoundation settings dictionary asks of a file or a recorder, read once for
/// ``AVAudioFile`` and ``AVAudioRecorder``.
///
/// Numbers are accepted in whatever type Swift code writes them (`12000`, `44_100.0`,
/// `Int(kAudioFormatMPEG4AAC)`, an `NSNumber`). Linear PCM is written as WAV; a compressed format
/// ID is encoded by FFmpeg (``FFmpegEncoder``): AAC (also for HE-AAC, which FFmpeg's encoder does
/// not write), Apple Lossless, FLAC, Opus, MP3, µ-law, A-law and IMA 4:1.
struct AudioSettings: Equatable {
  /// Samples a second.
  let sampleRate: Double
  /// Channels.
  let channels: Int
  /// The Core Audio format ID asked for (`kAudioFormatLinearPCM` when none is given).
  let formatID: AudioFormatID
  /// Whether samples are stored as 32-bit floats (linear PCM with `AVLinearPCMIsFloatKey`),
  /// otherwise as 16-bit integers.
  let storesFloats: Bool
  /// The bit rate asked of a lossy encoder: `AVEncoderBitRateKey`, or one that
  /// `AVEncoderAudioQualityKey` stands for; nil leaves the encoder's default.
  let bitRate: Int?

  /// Reads `settings`, for the file or recorder at `url` (named in errors).
  ///
  /// - Throws: ``AudioIOError/unsupportedFormat(_:)`` when the rate or the channel count is
  ///   missing or not positive, or the format ID is not one Core Audio defines.
  init(_ settings: [String: Any], for url: URL) throws(AudioIOError) {
    let rate = settings[AVSampleRateKey].flatMap(Self.number) ?? 0
    let channels = settings[AVNumberOfChannelsKey].flatMap(Self.number) ?? 0
    guard rate > 0, rate.isFinite, channels >= 1, channels == channels.rounded() else {
      throw .unsupportedFormat(
        "the settings for \(url.lastPathComponent) need a positive AVSampleRateKey and AVNumberOfChannelsKey")
    }
    let id = settings[AVFormatIDKey].flatMap(Self.number).map { AudioFormatID(exactly: $0) } ?? kAudioFormatLinearPCM
    guard let id, Self.knownFormats.contains(id) else {
      throw .unsupportedFormat(
        "AVFormatIDKey for \(url.lastPathComponent) is no Core Audio format ID; use kAudioFormatLinearPCM or kAudioFormatMPEG4AAC"
      )
    }
    sampleRate = rate
    self.channels = Int(channels)
    formatID = id
    storesFloats = id == kAudioFormatLinearPCM && (settings[AVLinearPCMIsFloatKey] as? Bool ?? false)
    if let rate = settings[AVEncoderBitRateKey].flatMap(Self.number), rate > 0, rate.isFinite {
      bitRate = Int(rate)
    } else if let value = settings[AVEncoderAudioQualityKey].flatMap(Self.number), value.isFinite {
      // From 24 kbit/s a channel at the lowest quality to 96 at the highest.
      let quality = min(max(value, 0), Double(AVAudioQuality.max.rawValue)) / Double(AVAudioQuality.max.rawValue)
      bitRate = Int((24_000 + quality * 72_000).rounded()) * Int(channels)
    } else {
      bitRate = nil
    }
  }

  /// The encoder for the format ID, nil for linear PCM (written as WAV).
  var codec: FFmpegEncoder.Codec? {
    switch formatID {
    case kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE: .aac
    case kAudioFormatAppleLossless: .appleLossless
    case kAudioFormatFLAC: .flac
    case kAudioFormatOpus: .opus
    case kAudioFormatMPEGLayer3: .mp3
    case kAudioFormatULaw: .muLaw
    case kAudioFormatALaw: .aLaw
    case kAudioFormatAppleIMA4: .ima4
    default: nil
    }
  }

  /// A writer for the file at `url` in these settings: WAV for linear PCM, FFmpeg's encoder for
  /// the rest.
  func makeWriter(at url: URL) throws(AudioIOError) -> any AudioFileWriter {
    guard let codec else { return try WAVWriter(url: url, format: fileFormat.floatFormat, encoding: encoding) }
    return try FFmpegEncoder(
      url: url, format: fileFormat.floatFormat, codec: codec, bitRate: codec.takesBitRate ? bitRate : nil)
  }

  /// The format of the audio stored.
  var fileFormat: AudioFormat {
    AudioFormat(
      sampleRate: sampleRate, channelCount: channels, commonFormat: storesFloats ? .pcmFormatFloat32 : .pcmFormatInt16)
  }

  /// How the WAV writer stores samples.
  var encoding: WAVWriter.SampleEncoding { storesFloats ? .float32 : .int16 }

  /// The format IDs settings may name.
  static let knownFormats: Set<AudioFormatID> = [
    kAudioFormatLinearPCM, kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatAppleLossless,
    kAudioFormatFLAC, kAudioFormatOpus, kAudioFormatMPEGLayer3, kAudioFormatULaw, kAudioFormatALaw,
    kAudioFormatAppleIMA4,
  ]

  /// A settings value as a number, whatever numeric type holds it.
  private static func number(_ value: Any) -> Double? {
    switch value {
    case let value as Double: value
    case let value as Float: Double(value)
    case let value as Int: Double(value)
    case let value as UInt32: Double(value)
    case let value as Int32: Double(value)
    case let value as UInt: Double(value)
    case let value as NSNumber: value.doubleValue
    default: nil
    }
  }
}
