// Apple's names for the audio types, so code written against AVFoundation ports with few changes.

/// `AVAudioFile` on Apple's platforms; here, a file decoded through FFmpeg.
public typealias AVAudioFile = AudioFile
/// `AVAudioFormat` on Apple's platforms.
public typealias AVAudioFormat = AudioFormat
/// `AVAudioPCMBuffer` on Apple's platforms.
public typealias AVAudioPCMBuffer = AudioBuffer
