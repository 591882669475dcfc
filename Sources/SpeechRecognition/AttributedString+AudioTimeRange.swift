import AudioIO
import Foundation

extension AttributedString {
  /// The text of this transcription heard during `timeRange`: from the first run whose
  /// `audioTimeRange` intersects it to the last one (runs without a time range between them
  /// included), or nil when no run does. For highlighting the words being played back.
  ///
  /// As Apple documents, the runs' time ranges should ascend but need not touch. A `timeRange`
  /// that lasts no time finds the run playing at that moment (start inclusive, end exclusive).
  public func rangeOfAudioTimeRangeAttributes(intersecting timeRange: CMTimeRange) -> Range<AttributedString.Index>? {
    var found: Range<AttributedString.Index>?
    for run in runs {
      guard let heard = run[AttributeScopes.SpeechAttributes.TimeRangeAttribute.self],
        Self.audio(heard, intersects: timeRange)
      else { continue }
      found = (found?.lowerBound ?? run.range.lowerBound)..<run.range.upperBound
    }
    return found
  }

  /// Whether two spans of audio share a moment; a span of no length is a moment.
  private static func audio(_ run: CMTimeRange, intersects query: CMTimeRange) -> Bool {
    guard run.isValid, query.isValid else { return false }
    if query.duration == .zero { return run.containsTime(query.start) || run.start == query.start }
    if run.duration == .zero { return query.containsTime(run.start) }
    return run.start < query.end && query.start < run.end
  }
}
