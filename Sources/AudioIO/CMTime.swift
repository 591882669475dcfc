/// A point or length of media time, as a rational number of seconds.
///
/// Core Media does not exist on Linux; this keeps the shape Speech results use
/// (`result.range.start.seconds`), so code written for Apple's frameworks ports unchanged.
public struct CMTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// The numerator: a count of `timescale` ticks.
  public var value: Int64
  /// Ticks per second.
  public var timescale: Int32

  /// Creates the time `value / timescale` seconds.
  public init(value: Int64, timescale: Int32) {
    precondition(timescale > 0, "a timescale must be positive")
    self.value = value
    self.timescale = timescale
  }

  /// Creates the time nearest `seconds` at `preferredTimescale` ticks per second.
  public init(seconds: Double, preferredTimescale: Int32) {
    self.init(value: Int64((seconds * Double(preferredTimescale)).rounded()), timescale: preferredTimescale)
  }

  /// Time zero.
  public static let zero = CMTime(value: 0, timescale: 1)

  /// The time in seconds.
  public var seconds: Double { Double(value) / Double(timescale) }

  /// Orders values from earliest (or least) to latest.
  public static func < (lhs: CMTime, rhs: CMTime) -> Bool {
    Int128(lhs.value) * Int128(rhs.timescale) < Int128(rhs.value) * Int128(lhs.timescale)
  }

  /// Whether two values are equal, compared exactly as rationals.
  public static func == (lhs: CMTime, rhs: CMTime) -> Bool {
    Int128(lhs.value) * Int128(rhs.timescale) == Int128(rhs.value) * Int128(lhs.timescale)
  }

  /// Hashes the value consistently with `==`.
  public func hash(into hasher: inout Hasher) { hasher.combine(seconds) }

  /// The sum of two times, at the finer of their timescales.
  public static func + (lhs: CMTime, rhs: CMTime) -> CMTime {
    CMTime(seconds: lhs.seconds + rhs.seconds, preferredTimescale: max(lhs.timescale, rhs.timescale))
  }

  /// The difference of two times, at the finer of their timescales.
  public static func - (lhs: CMTime, rhs: CMTime) -> CMTime {
    CMTime(seconds: lhs.seconds - rhs.seconds, preferredTimescale: max(lhs.timescale, rhs.timescale))
  }

  /// A short readable form, for messages and logs.
  public var description: String { String(format: "%.3fs", seconds) }
}
