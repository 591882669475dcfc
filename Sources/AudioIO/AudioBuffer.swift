/// A block of PCM audio held in memory as interleaved 32-bit float samples.
///
/// Plays the role of `AVAudioPCMBuffer`: decoded files, microphone captures and analyzer input
/// all travel as `AudioBuffer` values.
public struct AudioBuffer: Sendable, Equatable {
  /// The rate and channel layout of `samples`.
  public var format: AudioFormat
  /// Interleaved samples, nominally in -1...1.
  public var samples: [Float]

  /// Creates a buffer over `samples`, interleaved according to `format`.
  public init(format: AudioFormat, samples: [Float] = []) {
    precondition(samples.count % format.channels == 0, "samples must fill whole frames")
    self.format = format
    self.samples = samples
  }

  /// The number of frames (one sample per channel) in the buffer.
  public var frameLength: Int { samples.count / format.channels }

  /// The buffer's length in seconds.
  public var duration: Double { Double(frameLength) / format.sampleRate }

  /// The frames in `range` (frame indices) as a new buffer, for handing audio on in pieces.
  public func frames(_ range: Range<Int>) -> AudioBuffer {
    let clamped = range.clamped(to: 0..<frameLength)
    let channels = format.channels
    return AudioBuffer(
      format: format,
      samples: Array(samples[(clamped.lowerBound * channels)..<(clamped.upperBound * channels)]))
  }
}
