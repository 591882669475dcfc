// Core Media's C functions for times and ranges, which sample code still calls by these names;
// each is the Swift member of the same meaning.

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The time `value / timescale` seconds (invalid when `timescale` is not positive).
public func CMTimeMake(value: CMTimeValue, timescale: CMTimeScale) -> CMTime {
  CMTime(value: value, timescale: timescale)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The time nearest `seconds` at `preferredTimescale` ticks per second.
public func CMTimeMakeWithSeconds(_ seconds: Double, preferredTimescale: CMTimeScale) -> CMTime {
  CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// `time` in seconds: NaN when it is invalid or indefinite, an infinity for the infinities.
public func CMTimeGetSeconds(_ time: CMTime) -> Double {
  time.seconds
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The sum of two times, with Core Media's rules for special times.
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
  lhs + rhs
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The difference of two times, with Core Media's rules for special times.
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
  lhs - rhs
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// -1, 0 or 1 as `time1` is before, equal to or after `time2`, in Core Media's order.
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 {
  time1 < time2 ? -1 : (time1 == time2 ? 0 : 1)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The span that begins at `start` and lasts `duration`.
public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange {
  CMTimeRange(start: start, duration: duration)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Where `range` ends.
public func CMTimeRangeGetEnd(_ range: CMTimeRange) -> CMTime {
  range.end
}
