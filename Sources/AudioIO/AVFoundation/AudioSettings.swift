import Foundation

/// What an AVFoundation settings dictionary asks of a file or a recorder, read once for
/// ``AVAudioFile`` and ``AVAudioRecorder``.
///
/// Numbers are accepted in whatever type Swift code writes them (`12000`, `44_100.0`,
/// `Int(kAudioFormatMPEG4AAC)`, an `NSNumber`). Only WAV is written here: a compressed format ID
/// (AAC, ALAC, FLAC, Opus, ...) is accepted and its audio stored as 16-bit linear PCM in the
/// file named, which every reader in this package (FFmpeg) opens by its content.
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
