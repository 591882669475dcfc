// Apple's names for the audio types and counts, so code written against AVFoundation ports with
// few changes. The classes with Apple's shape (AVAudioFile, AVAudioPCMBuffer, AVAudioConverter,
// AVAudioEngine, AVAudioSession, AVAudioTime) live in their own files beside this one.

/// `AVAudioFormat` on Apple's platforms: a sample rate and a channel count, samples as 32-bit floats.
public typealias AVAudioFormat = AudioFormat
/// The sample encodings AVFoundation names (`.pcmFormatFloat32`, `.pcmFormatInt16`, ...), under
/// Apple's top-level name.
public typealias AVAudioCommonFormat = AudioFormat.CommonFormat
/// A count of audio frames, as AVFoundation types it.
public typealias AVAudioFrameCount = UInt32
/// A frame position in a stream or file, as AVFoundation types it.
public typealias AVAudioFramePosition = Int64
/// A count of channels, as AVFoundation types it.
public typealias AVAudioChannelCount = UInt32
/// A count of packets (for PCM, frames), as AVFoundation types it.
public typealias AVAudioPacketCount = UInt32
/// The index of a node's bus; the input node has one output bus, 0.
public typealias AVAudioNodeBus = Int

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The key of an interruption notification's ``AVAudioSession/InterruptionType`` raw value.
public let AVAudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The key of an ended interruption's ``AVAudioSession/InterruptionOptions`` raw value.
public let AVAudioSessionInterruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The key of a route change notification's reason.
public let AVAudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
