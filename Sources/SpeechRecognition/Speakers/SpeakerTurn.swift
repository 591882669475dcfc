/// One stretch of a recording in which one speaker talks.
public struct SpeakerTurn: Codable, Sendable, Hashable {
  /// The speaker's index in its ``SpeakerDiarization``, from 0; people see it as "Speaker 1".
  public var speaker: Int
  /// Start, in seconds from the beginning of the recording.
  public var start: Double
  /// End, in seconds from the beginning of the recording.
  public var end: Double

  /// Creates a turn of `speaker` from `start` to `end` seconds.
  public init(speaker: Int, start: Double, end: Double) {
    self.speaker = speaker
    self.start = start
    self.end = end
  }

  /// How long the turn lasts, in seconds.
  public var duration: Double { max(0, end - start) }

  /// How many seconds of this turn fall between `start` and `end`.
  public func overlap(from start: Double, to end: Double) -> Double {
    max(0, min(self.end, end) - max(self.start, start))
  }
}
