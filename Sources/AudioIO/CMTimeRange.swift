/// A span of media time: where a speech result lies in the audio.
///
/// Mirrors Core Media's `CMTimeRange`, which Speech results use for `range` and for the
/// `audioTimeRange` attribute of their text.
public struct CMTimeRange: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Where the span begins.
  public var start: CMTime
  /// How long it lasts.
  public var duration: CMTime

  /// Creates the span that begins at `start` and lasts `duration`.
  public init(start: CMTime, duration: CMTime) {
    self.start = start
    self.duration = duration
  }

  /// Creates the span from `start` to `end`.
  public init(start: CMTime, end: CMTime) {
    self.init(start: start, duration: end - start)
  }

  /// Where the span ends.
  public var end: CMTime { start + duration }

  /// Whether `time` lies in the span (start inclusive, end exclusive).
  public func containsTime(_ time: CMTime) -> Bool { time >= start && time < end }

  /// A short readable form, for messages and logs.
  public var description: String { "[\(start) – \(end)]" }
}
