import Foundation

/// The levels of a stretch of audio as AVFoundation's meters report them: for each channel, the
/// average (root mean square) and peak power in decibels relative to full scale, from
/// ``silence`` (-160 dB) up to 0 dB for a full-scale signal.
struct AudioLevels: Sendable, Equatable {
  /// What a meter reads for silence, or for a channel the audio does not have.
  static let silence: Float = -160

  /// Each channel's average power, in dBFS.
  private(set) var average: [Float]
  /// Each channel's peak power, in dBFS.
  private(set) var peak: [Float]

  /// Levels that read silence on every channel.
  init(channels: Int) {
    average = Array(repeating: Self.silence, count: channels)
    peak = average
  }

  /// The levels of interleaved `samples` of `channels` channels.
  init(_ samples: ArraySlice<Float>, channels: Int) {
    var squares = [Double](repeating: 0, count: channels)
    var peaks = [Float](repeating: 0, count: channels)
    for (offset, sample) in samples.enumerated() {
      let channel = offset % channels
      squares[channel] += Double(sample) * Double(sample)
      peaks[channel] = max(peaks[channel], abs(sample))
    }
    let frames = max(samples.count / max(channels, 1), 1)
    average = squares.map { Self.decibels(Float(($0 / Double(frames)).squareRoot())) }
    peak = peaks.map(Self.decibels)
  }

  /// Channel `channel`'s average power; ``silence`` for a channel there is not.
  func average(forChannel channel: Int) -> Float { average.indices.contains(channel) ? average[channel] : Self.silence }

  /// Channel `channel`'s peak power; ``silence`` for a channel there is not.
  func peak(forChannel channel: Int) -> Float { peak.indices.contains(channel) ? peak[channel] : Self.silence }

  /// `amplitude` (1 is full scale) in decibels, no lower than ``silence``.
  private static func decibels(_ amplitude: Float) -> Float {
    amplitude > 0 ? max(20 * log10(amplitude), silence) : silence
  }
}
