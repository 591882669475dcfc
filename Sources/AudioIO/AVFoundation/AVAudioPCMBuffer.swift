/// A buffer of PCM audio with Apple's shape: a fixed capacity, a settable length and one array of
/// 32-bit floats per channel (`floatChannelData`), as AVFoundation's standard format lays it out.
///
/// It is a class, as on Apple's platforms, so a converter fills the buffer it is handed. The rest
/// of this package passes audio as ``AudioBuffer`` values (interleaved); ``init(_:)`` and
/// ``audioBuffer`` convert between the two. Like Apple's, a buffer must not be written from two
/// threads at once.
public final class AVAudioPCMBuffer: AVAudioBuffer, @unchecked Sendable {
  /// The most frames the buffer can hold.
  public let frameCapacity: AVAudioFrameCount
  private let channels: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
  private var length: AVAudioFrameCount = 0

  /// A zeroed buffer for up to `frameCapacity` frames of `format`, with `frameLength` 0.
  ///
  /// Returns nil, as Apple's does, when the capacity is too large to allocate (over 2^28 frames).
  public init?(pcmFormat format: AVAudioFormat, frameCapacity: AVAudioFrameCount) {
    guard frameCapacity <= 1 << 28 else { return nil }
    self.frameCapacity = frameCapacity
    channels = .allocate(capacity: format.channels)
    for channel in 0..<format.channels {
      channels[channel] = .allocate(capacity: max(Int(frameCapacity), 1))
      channels[channel].initialize(repeating: 0, count: max(Int(frameCapacity), 1))
    }
    super.init(format: format)
  }

  /// A buffer holding a copy of `buffer`'s frames (our extension, to hand decoded or captured audio
  /// to code written for AVFoundation).
  public convenience init(_ buffer: AudioBuffer) {
    self.init(pcmFormat: buffer.format, frameCapacity: AVAudioFrameCount(buffer.frameLength))!
    append(buffer)
  }

  deinit {
    for channel in 0..<format.channels { channels[channel].deallocate() }
    channels.deallocate()
  }

  /// The number of valid frames; setting it beyond ``frameCapacity`` is a programming error, as
  /// on Apple's platforms.
  public var frameLength: AVAudioFrameCount {
    get { length }
    set {
      precondition(newValue <= frameCapacity, "frameLength \(newValue) exceeds the capacity \(frameCapacity)")
      length = newValue
    }
  }

  /// The samples, one pointer per channel (non-interleaved), each valid for ``frameLength`` frames.
  public var floatChannelData: UnsafePointer<UnsafeMutablePointer<Float>>? { UnsafePointer(channels) }

  /// Always nil: buffers here hold floats (see ``floatChannelData``).
  public var int16ChannelData: UnsafePointer<UnsafeMutablePointer<Int16>>? { nil }

  /// Always nil: buffers here hold floats (see ``floatChannelData``).
  public var int32ChannelData: UnsafePointer<UnsafeMutablePointer<Int32>>? { nil }

  /// The distance between consecutive samples of a channel: 1, since channels are separate.
  public var stride: Int { 1 }

  /// The valid frames as an interleaved ``AudioBuffer`` value (our extension).
  public var audioBuffer: AudioBuffer {
    let channelCount = format.channels
    var samples = [Float](repeating: 0, count: Int(length) * channelCount)
    for channel in 0..<channelCount {
      let source = channels[channel]
      for frame in 0..<Int(length) { samples[frame * channelCount + channel] = source[frame] }
    }
    return AudioBuffer(format: format, samples: samples)
  }

  /// Appends as many of `buffer`'s frames as fit and returns how many did (our extension).
  @discardableResult
  public func append(_ buffer: AudioBuffer) -> Int {
    precondition(buffer.format == format, "the buffer is \(buffer.format), this one holds \(format)")
    let count = min(buffer.frameLength, Int(frameCapacity - length))
    let channelCount = format.channels
    for channel in 0..<channelCount {
      let target = channels[channel] + Int(length)
      for frame in 0..<count { target[frame] = buffer.samples[frame * channelCount + channel] }
    }
    length += AVAudioFrameCount(count)
    return count
  }
}
