import AudioIO

extension SpeechDetector {
  /// A stretch of audio and whether it holds speech.
  ///
  /// Results follow one another without gaps or overlaps, alternating between speech and
  /// silence, from the start of the input to its end.
  public struct Result: SpeechModuleResult, Sendable, Equatable {
    /// The audio this result covers.
    public var range: CMTimeRange
    /// Audio before this time will produce no further changes to results.
    public var resultsFinalizationTime: CMTime
    /// Whether someone speaks in `range`.
    public var speechDetected: Bool

    /// Creates a result; mostly for tests and for modules built on this one.
    public init(range: CMTimeRange, resultsFinalizationTime: CMTime, speechDetected: Bool) {
      self.range = range
      self.resultsFinalizationTime = resultsFinalizationTime
      self.speechDetected = speechDetected
    }
  }
}
