/// Which greedily decoded segments are decoded again with beam search, and over which audio.
///
/// Beam search of width 5 costs whisper.cpp about twice the CPU time of greedy decoding on two
/// cores, yet gives the same words wherever the model is sure of them. So a file is decoded
/// greedily, and only a segment with a word the model was unsure of (a word token whose
/// probability is below ``threshold``) is decoded again, alone, with the beam; its result
/// replaces the greedy one unless it lost or invented most of the words. Speech that fits one
/// 30 s window skips the greedy pass (``decodesGreedilyFirst(sampleCount:sampleRate:)``).
struct SegmentRecheck: Sendable, Equatable {
  /// A word token less likely than this marks its segment as unsure.
  var threshold: Float = 0.6
  /// How far, in seconds, a cut may move out from a segment's start or end to find a quiet
  /// moment: Whisper's segment times can be a few tenths of a second early or late.
  var reach = 0.4
  /// How far, in seconds, a cut may move into the segment.
  var inset = 0.1
  /// The length of the frames whose loudness is compared, in seconds.
  var frame = 0.02

  /// Whether a signal of `sampleCount` samples is decoded greedily first. One that fits Whisper's
  /// 30 s window goes to the beam at once: with an unsure word it would be decoded again whole,
  /// and most short recordings have one (5 of the 7 short LibriVox and jfk clips), so the beam
  /// alone costs less on average and gives the text the recheck would have.
  func decodesGreedilyFirst(sampleCount: Int, sampleRate: Double) -> Bool {
    Double(sampleCount) > 30 * sampleRate
  }

  /// Whether `tokens` hold a word the model was unsure of. Tokens without a letter or digit
  /// (punctuation, spaces) do not count: the model is often unsure where a sentence ends.
  func isUnsure(_ tokens: [WhisperSegment.Token]) -> Bool {
    tokens.contains { token in
      token.probability < threshold
        && String(decoding: token.bytes, as: UTF8.self).contains { $0.isLetter || $0.isNumber }
    }
  }

  /// The samples of `signal` to decode again for the segment that spans `segment` (seconds).
  ///
  /// Each end is cut at the quietest moment near the segment's own end, since Whisper's times can
  /// fall inside a word, so that no word is cut in two or taken from a neighbour. A segment that
  /// ends Whisper's window (`endsWindow`) is not cut after its end: the words after it are the
  /// next window's.
  func audioRange(
    of segment: ClosedRange<Double>, endsWindow: Bool, in signal: [Float], sampleRate: Double
  ) -> Range<Int> {
    let duration = Double(signal.count) / sampleRate
    // Whisper's times can run past the end of the signal.
    func within(_ low: Double, _ high: Double) -> ClosedRange<Double> {
      let low = min(max(low, 0), duration)
      return low...min(max(high, low), duration)
    }
    let start = quietest(
      in: within(segment.lowerBound - reach, min(segment.lowerBound + inset, segment.upperBound)), of: signal,
      sampleRate: sampleRate, nearest: segment.lowerBound)
    let end = quietest(
      in: within(max(segment.upperBound - inset, start), segment.upperBound + (endsWindow ? 0 : reach)),
      of: signal, sampleRate: sampleRate, nearest: segment.upperBound)
    let first = min(max(Int(start * sampleRate), 0), signal.count)
    return first..<min(max(Int(end * sampleRate), first), signal.count)
  }

  /// The middle of the quietest frame of `signal` within `range` (seconds); of equally quiet
  /// frames, the one nearest `target`.
  func quietest(in range: ClosedRange<Double>, of signal: [Float], sampleRate: Double, nearest target: Double)
    -> Double
  {
    let length = max(Int(frame * sampleRate), 1)
    let first = max(Int(range.lowerBound * sampleRate), 0)
    let last = min(Int(range.upperBound * sampleRate), signal.count) - length
    guard first <= last else { return min(max(target, range.lowerBound), range.upperBound) }
    var best: (energy: Float, distance: Double, time: Double)?
    for start in stride(from: first, through: last, by: length / 2) {
      let energy = signal[start..<start + length].reduce(Float(0)) { $0 + $1 * $1 }
      let time = (Double(start) + Double(length) / 2) / sampleRate
      let distance = abs(time - target)
      if let current = best, current.energy < energy || (current.energy == energy && current.distance <= distance) {
        continue
      }
      best = (energy, distance, time)
    }
    return best?.time ?? target
  }

  /// Whether the beam's `replacement` text may stand in for the greedy `original`: it has words,
  /// and neither lost more than half of the original's words nor doubled them.
  func accepts(_ replacement: String, for original: String) -> Bool {
    let new = replacement.split(whereSeparator: \.isWhitespace).count
    let old = original.split(whereSeparator: \.isWhitespace).count
    return new > 0 && new * 2 >= old && new <= old * 2 + 2
  }
}
