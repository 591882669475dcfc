import AudioIO

/// A stretch of an analyzer's live input, converted to 16 kHz mono, with the voice-activity
/// model's judgement of each 32 ms window: what every live module analysis consumes.
struct LiveAudio: Sendable {
  /// Samples per second on the analyzer's timeline.
  static let sampleRate = Int(AudioFormat.speechAnalysis.sampleRate)

  /// Where the first sample lies on the timeline, in samples from time zero.
  var start: Int
  /// The 16 kHz mono samples.
  var samples: [Float]
  /// The probability of speech in each ``VoiceActivityDetector/windowSize`` window of `samples`,
  /// in order; only the last window of the input may be shorter than the others.
  var speechProbabilities: [Float]

  /// Where the stretch ends on the timeline (exclusive).
  var end: Int { start + samples.count }

  /// The timeline positions of window `index`.
  func window(_ index: Int) -> Range<Int> {
    let lower = start + index * VoiceActivityDetector.windowSize
    return lower..<min(lower + VoiceActivityDetector.windowSize, end)
  }

  /// A time on the timeline, from a position in samples.
  static func time(_ position: Int) -> CMTime {
    CMTime(value: Int64(position), timescale: Int32(sampleRate))
  }

  /// The position in samples nearest a time on the timeline.
  static func position(_ time: CMTime) -> Int {
    Int((time.seconds * Double(sampleRate)).rounded())
  }

  /// A range of time on the timeline, from a range of positions.
  static func timeRange(_ positions: Range<Int>) -> CMTimeRange {
    CMTimeRange(start: time(positions.lowerBound), duration: time(positions.count))
  }
}
