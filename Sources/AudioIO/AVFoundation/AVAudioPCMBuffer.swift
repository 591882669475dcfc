/// A buffer of PCM audio with Apple's shape: a fixed capacity, a settable length and one array of
/// samples per channel: 32-bit floats (`floatChannelData`), as AVFoundation's standard format lays
/// them out, or 16- or 32-bit integers for a format of those encodings.
///
/// It is a class, as on Apple's platforms, so a converter fills the buffer it is handed. The rest
/// of this package passes audio as ``AudioBuffer`` values (interleaved); ``init(_:)`` and
/// ``audioBuffer`` convert between the two. Like Apple's, a buffer must not be written from two
/// threads at once.
public final class AVAudioPCMBuffer: AVAudioBuffer, @unchecked Sendable {
  /// The most frames the buffer can hold.
  public let frameCapacity: AVAudioFrameCount
  /// One array per channel, of the format's sample type.
  private enum Storage {
    case float(UnsafeMutablePointer<UnsafeMutablePointer<Float>>)
    case int16(UnsafeMutablePointer<UnsafeMutablePointer<Int16>>)
    case int32(UnsafeMutablePointer<UnsafeMutablePointer<Int32>>)
  }
  private let storage: Storage
  private var length: AVAudioFrameCount = 0

  /// A zeroed buffer for up to `frameCapacity` frames of `format`, with `frameLength` 0: 32-bit
  /// floats (``floatChannelData``), or 16- or 32-bit integers for a format made with one of those
  /// common formats (``int16ChannelData``, ``int32ChannelData``).
  ///
  /// Returns nil, as Apple's does, when the capacity is too large to allocate (over 2^28 frames).
  public init?(pcmFormat format: AVAudioFormat, frameCapacity: AVAudioFrameCount) {
    guard frameCapacity <= 1 << 28 else { return nil }
    self.frameCapacity = frameCapacity
    let frames = max(Int(frameCapacity), 1)
    func allocate<Sample: Numeric>(_: Sample.Type) -> UnsafeMutablePointer<UnsafeMutablePointer<Sample>> {
      let channels = UnsafeMutablePointer<UnsafeMutablePointer<Sample>>.allocate(capacity: format.channels)
      for channel in 0..<format.channels {
        channels[channel] = .allocate(capacity: frames)
        channels[channel].initialize(repeating: 0, count: frames)
      }
      return channels
    }
    switch format.commonFormat {
    case .pcmFormatInt16: storage = .int16(allocate(Int16.self))
    case .pcmFormatInt32: storage = .int32(allocate(Int32.self))
    default: storage = .float(allocate(Float.self))
    }
    super.init(format: format)
  }

  /// A buffer holding a copy of `buffer`'s frames (our extension, to hand decoded or captured audio
  /// to code written for AVFoundation).
  public convenience init(_ buffer: AudioBuffer) {
    self.init(buffer, format: buffer.format)
  }

  /// A buffer of `format` (the rate and channels of `buffer`, any sample encoding) holding
  /// `buffer`'s frames, converted to its samples.
  convenience init(_ buffer: AudioBuffer, format: AVAudioFormat) {
    self.init(pcmFormat: format, frameCapacity: AVAudioFrameCount(buffer.frameLength))!
    append(buffer)
  }

  deinit {
    func free<Sample>(_ channels: UnsafeMutablePointer<UnsafeMutablePointer<Sample>>) {
      for channel in 0..<format.channels { channels[channel].deallocate() }
      channels.deallocate()
    }
    switch storage {
    case .float(let channels): free(channels)
    case .int16(let channels): free(channels)
    case .int32(let channels): free(channels)
    }
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

  /// The samples of a float buffer, one pointer per channel (non-interleaved), each valid for
  /// ``frameLength`` frames; nil for a buffer of integers.
  public var floatChannelData: UnsafePointer<UnsafeMutablePointer<Float>>? {
    if case .float(let channels) = storage { UnsafePointer(channels) } else { nil }
  }

  /// The samples of a 16-bit integer buffer, one pointer per channel; nil for other encodings.
  public var int16ChannelData: UnsafePointer<UnsafeMutablePointer<Int16>>? {
    if case .int16(let channels) = storage { UnsafePointer(channels) } else { nil }
  }

  /// The samples of a 32-bit integer buffer, one pointer per channel; nil for other encodings.
  public var int32ChannelData: UnsafePointer<UnsafeMutablePointer<Int32>>? {
    if case .int32(let channels) = storage { UnsafePointer(channels) } else { nil }
  }

  /// The distance between consecutive samples of a channel: 1, since channels are separate.
  public var stride: Int { 1 }

  /// The valid frames as an interleaved ``AudioBuffer`` value of floats (our extension); integer
  /// samples are scaled to -1...1.
  public var audioBuffer: AudioBuffer {
    let channelCount = format.channels
    var samples = [Float](repeating: 0, count: Int(length) * channelCount)
    func read<Sample>(_ channels: UnsafeMutablePointer<UnsafeMutablePointer<Sample>>, _ float: (Sample) -> Float) {
      for channel in 0..<channelCount {
        let source = channels[channel]
        for frame in 0..<Int(length) { samples[frame * channelCount + channel] = float(source[frame]) }
      }
    }
    switch storage {
    case .float(let channels): read(channels) { $0 }
    case .int16(let channels): read(channels) { Float($0) / 32_768 }
    case .int32(let channels): read(channels) { Float(Double($0) / 2_147_483_648) }
    }
    return AudioBuffer(format: format.floatFormat, samples: samples)
  }

  /// Appends as many of `buffer`'s frames as fit and returns how many did (our extension); for a
  /// buffer of integers the float samples are scaled and clipped to their range.
  @discardableResult
  public func append(_ buffer: AudioBuffer) -> Int {
    precondition(
      buffer.format.floatFormat == format.floatFormat, "the buffer is \(buffer.format), this one holds \(format)")
    let count = min(buffer.frameLength, Int(frameCapacity - length))
    let channelCount = format.channels
    func write<Sample>(_ channels: UnsafeMutablePointer<UnsafeMutablePointer<Sample>>, _ convert: (Float) -> Sample) {
      for channel in 0..<channelCount {
        let target = channels[channel] + Int(length)
        for frame in 0..<count { target[frame] = convert(buffer.samples[frame * channelCount + channel]) }
      }
    }
    switch storage {
    case .float(let channels): write(channels) { $0 }
    // Scaled as they are read (by 2^15 and 2^31), so integers read back unchanged; 1.0 clips.
    case .int16(let channels): write(channels) { Int16(clamping: Int((Double($0) * 32_768).rounded())) }
    case .int32(let channels): write(channels) { Int32(clamping: Int((Double($0) * 2_147_483_648).rounded())) }
    }
    length += AVAudioFrameCount(count)
    return count
  }
}
