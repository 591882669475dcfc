import AudioIO
import Foundation
import Synchronization

/// Measures a voice frame by frame as 16 kHz mono audio arrives: whether each frame is voiced,
/// its period and its loudness, from which ``analytics(from:to:)`` makes Apple's voice analytics
/// for any stretch.
///
/// The audio is halved to 8 kHz (pairs averaged, enough for a voice's fundamental) and read in
/// windows of 40 ms every 10 ms. A window's normalized autocorrelation is highest at its period:
/// that peak's height, from ``unvoicedCorrelation`` to ``voicedCorrelation``, is the frame's
/// voicing, and the frame is voiced from halfway between, in audio louder than
/// ``quietestLevel``. Only each frame's three figures are kept, about 2 KB per second of audio.
final class VoiceAnalyticsMeter: Sendable {
  /// Seconds between frames.
  static let frameDuration = 0.01
  /// The rate the audio is measured at.
  static let rate = 8_000
  /// Samples in a window, and between windows.
  static let window = 320
  static let hop = 80
  /// The shortest and the longest period looked for, in samples: 400 Hz and 60 Hz.
  static let shortestPeriod = 20
  static let longestPeriod = 133
  /// The autocorrelation peak of noise (the best of a hundred lags of a short window reaches
  /// about this), where voicing is 0, and of clearly voiced speech, where it is 1; a frame is
  /// voiced from halfway between.
  static let unvoicedCorrelation = 0.3
  static let voicedCorrelation = 0.9
  /// The root-mean-square level below which a frame is silence (-46 dBFS).
  static let quietestLevel: Float = 0.005

  /// What one frame measured.
  struct Frame: Equatable {
    /// How clearly the window repeats, 0...1 (its autocorrelation peak, scaled).
    var voicing: Double
    /// The period in seconds, when the frame is voiced.
    var period: Double?
    /// The window's root-mean-square level.
    var level: Float
  }

  private struct State {
    /// 8 kHz audio from the start of the next window on.
    var pending: [Float] = []
    /// A 16 kHz sample waiting for its pair.
    var odd: Float?
    var frames: [Frame] = []
  }
  private let state = Mutex(State())

  /// Measures `samples` (16 kHz mono, following what came before).
  func append(_ samples: [Float]) {
    state.withLock { state in
      var input = samples[...]
      if let odd = state.odd, let first = input.first {
        state.pending.append((odd + first) / 2)
        input = input.dropFirst()
        state.odd = nil
      }
      var index = input.startIndex
      while index + 1 < input.endIndex {
        state.pending.append((input[index] + input[index + 1]) / 2)
        index += 2
      }
      if index < input.endIndex { state.odd = input[index] }
      var start = 0
      while state.pending.count - start >= Self.window {
        state.frames.append(Self.measure(state.pending[start..<(start + Self.window)]))
        start += Self.hop
      }
      state.pending.removeFirst(start)
    }
  }

  /// Measures a whole 16 kHz mono recording.
  func append(_ audio: AudioBuffer) {
    precondition(audio.format == .speechAnalysis, "voice analytics read 16 kHz mono")
    append(audio.samples)
  }

  /// The frames measured so far.
  var frames: [Frame] { state.withLock { $0.frames } }

  /// Apple's voice analytics of the frames from `start` to `end` seconds; nil when no frame
  /// falls in that stretch.
  func analytics(from start: TimeInterval, to end: TimeInterval) -> SFVoiceAnalytics? {
    // Only the stretch's frames are copied: a final result asks once for each of its words.
    let frames = state.withLock { state -> [Frame] in
      // Frame positions as Doubles first: an end of .infinity means the last frame.
      let count = Double(state.frames.count)
      let first = Int(min(max(0, (start / Self.frameDuration).rounded(.down)), count))
      let last = Int(min(max(0, (end / Self.frameDuration).rounded(.up)), count))
      return first < last ? Array(state.frames[first..<last]) : []
    }
    guard !frames.isEmpty else { return nil }
    let periods = frames.compactMap(\.period).sorted()
    let median = periods.isEmpty ? 0 : periods[periods.count / 2]
    var jitter: [Double] = []
    var shimmer: [Double] = []
    var previous: Frame?
    for frame in frames {
      if let period = frame.period, let before = previous?.period, let level = previous?.level, level > 0 {
        jitter.append(abs(period - before) / ((period + before) / 2) * 100)
        shimmer.append(Double(abs(20 * log10(frame.level / level))))
      } else {
        jitter.append(0)
        shimmer.append(0)
      }
      previous = frame
    }
    // A longer period is a lower pitch: the frequency over the median is the median period over this one.
    let pitch = frames.map { frame in frame.period.map { log(median / $0) } ?? 0 }
    return SFVoiceAnalytics(
      jitter: jitter, shimmer: shimmer, pitch: pitch, voicing: frames.map(\.voicing),
      frameDuration: Self.frameDuration)
  }

  /// One window's voicing, period and level.
  static func measure(_ window: ArraySlice<Float>) -> Frame {
    let mean = window.reduce(0, +) / Float(window.count)
    let samples = window.map { $0 - mean }
    let energy = samples.reduce(0) { $0 + $1 * $1 }
    let level = (energy / Float(samples.count)).squareRoot()
    guard level >= quietestLevel else { return Frame(voicing: 0, period: nil, level: level) }
    // The normalized autocorrelation at each candidate period.
    var correlations = [Double](repeating: 0, count: longestPeriod + 2)
    samples.withUnsafeBufferPointer { x in
      for lag in (shortestPeriod - 1)...(longestPeriod + 1) {
        var product: Float = 0
        var head: Float = 0
        var tail: Float = 0
        for index in 0..<(x.count - lag) {
          let a = x[index]
          let b = x[index + lag]
          product += a * b
          head += a * a
          tail += b * b
        }
        let norm = (head * tail).squareRoot()
        correlations[lag] = norm > 0 ? Double(product / norm) : 0
      }
    }
    let candidates = shortestPeriod...longestPeriod
    guard var chosen = candidates.max(by: { correlations[$0] < correlations[$1] }) else {
      return Frame(voicing: 0, period: nil, level: level)
    }
    // A period's multiples correlate nearly as well as the period itself: when a half or a third
    // of the best lag is a peak almost as strong, that is the period.
    for divisor in [3, 2] {
      let near = (chosen / divisor - 2)...(chosen / divisor + 2)
      if let peak = near.clamped(to: candidates).max(by: { correlations[$0] < correlations[$1] }),
        correlations[peak] >= 0.95 * correlations[chosen]
      {
        chosen = peak
        break
      }
    }
    let correlation = correlations[chosen]
    let voicing = max(0, min(1, (correlation - unvoicedCorrelation) / (voicedCorrelation - unvoicedCorrelation)))
    guard correlation >= (unvoicedCorrelation + voicedCorrelation) / 2 else {
      return Frame(voicing: voicing, period: nil, level: level)
    }
    // The peak between samples, from the parabola through it and its neighbours.
    let (left, middle, right) = (correlations[chosen - 1], correlations[chosen], correlations[chosen + 1])
    let curvature = left - 2 * middle + right
    let shift = curvature < 0 ? max(-0.5, min(0.5, 0.5 * (left - right) / curvature)) : 0
    return Frame(voicing: voicing, period: (Double(chosen) + shift) / Double(rate), level: level)
  }
}
