/// A span of media time: where a speech result lies in the audio.
///
/// Mirrors Core Media's `CMTimeRange`, which Speech results use for `range` and for the
/// `audioTimeRange` attribute of their text.
public struct CMTimeRange: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Where the span begins.
  public var start: CMTime
  /// How long it lasts.
  public var duration: CMTime

  /// Creates an empty span at time zero.
  public init() {
    self.init(start: .zero, duration: .zero)
  }

  /// Creates the span that begins at `start` and lasts `duration`.
  public init(start: CMTime, duration: CMTime) {
    self.start = start
    self.duration = duration
  }

  /// Creates the span from `start` to `end`.
  public init(start: CMTime, end: CMTime) {
    self.init(start: start, duration: end - start)
  }

  /// The empty span at time zero.
  public static let zero = CMTimeRange()
  /// A span that holds nothing, what Core Media returns for an impossible question.
  public static let invalid = CMTimeRange(start: .invalid, duration: .invalid)

  /// Where the span ends.
  public var end: CMTime { start + duration }

  /// Whether the span is valid: a valid start and a valid duration that is not negative.
  public var isValid: Bool {
    start.isValid && duration.isValid && duration.epoch == 0 && !(duration < .zero)
  }

  /// Whether the span is valid and lasts no time.
  public var isEmpty: Bool { isValid && duration == .zero }

  /// Whether `time` lies in the span (start inclusive, end exclusive).
  public func containsTime(_ time: CMTime) -> Bool { time >= start && time < end }

  /// Whether every time of `range` lies in this span (both must be valid).
  public func containsTimeRange(_ range: CMTimeRange) -> Bool {
    isValid && range.isValid && start <= range.start && range.end <= end
  }

  /// The smallest span that holds both spans; invalid when either is.
  public func union(_ otherRange: CMTimeRange) -> CMTimeRange {
    guard isValid, otherRange.isValid else { return .invalid }
    return CMTimeRange(start: min(start, otherRange.start), end: max(end, otherRange.end))
  }

  /// The largest span both spans hold: an empty span (``zero``) when they do not overlap, invalid
  /// when either is.
  public func intersection(_ otherRange: CMTimeRange) -> CMTimeRange {
    guard isValid, otherRange.isValid else { return .invalid }
    let start = max(start, otherRange.start)
    let end = min(end, otherRange.end)
    return end > start ? CMTimeRange(start: start, end: end) : .zero
  }

  /// A short readable form, for messages and logs.
  public var description: String { "[\(start) – \(end)]" }
}
