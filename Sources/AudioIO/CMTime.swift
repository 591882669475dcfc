/// A point or length of media time, as a rational number of seconds, or one of Core Media's
/// special times (``invalid``, ``indefinite``, ``positiveInfinity``, ``negativeInfinity``).
///
/// Core Media does not exist on Linux; this keeps the shape Speech results use
/// (`result.range.start.seconds`) and Core Media's rules for special times, so code written for
/// Apple's frameworks ports unchanged.
public struct CMTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The numerator: a count of `timescale` ticks.
  public var value: CMTimeValue
  /// Ticks per second.
  public var timescale: CMTimeScale
  /// Whether the time is valid, and whether it is a special time.
  public var flags: CMTimeFlags
  /// Distinguishes otherwise equal times from different loops of a timeline; usually 0.
  public var epoch: CMTimeEpoch

  /// Creates the time `value / timescale` seconds; invalid (as Core Media makes it) when
  /// `timescale` is not positive.
  public init(value: CMTimeValue, timescale: CMTimeScale) {
    self.init(value: value, timescale: timescale, flags: timescale > 0 ? .valid : [], epoch: 0)
  }

  /// Creates a time from all of its fields, as Core Media's initializer does.
  public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
    self.value = value
    self.timescale = timescale
    self.flags = flags
    self.epoch = epoch
  }

  /// Creates the time nearest `seconds` at `preferredTimescale` ticks per second: invalid for NaN
  /// or a timescale that is not positive, an infinity for an infinite or too large number.
  public init(seconds: Double, preferredTimescale: CMTimeScale) {
    guard preferredTimescale > 0, !seconds.isNaN else {
      self = .invalid
      return
    }
    let ticks = (seconds * Double(preferredTimescale)).rounded()
    guard ticks.isFinite, ticks < 0x1p63, ticks >= -0x1p63 else {
      self = seconds > 0 ? .positiveInfinity : .negativeInfinity
      return
    }
    self.init(value: CMTimeValue(ticks), timescale: preferredTimescale)
    if ticks != seconds * Double(preferredTimescale) { flags.insert(.hasBeenRounded) }
  }

  /// Time zero.
  public static let zero = CMTime(value: 0, timescale: 1)
  /// A time that holds nothing (what Core Media returns for an impossible question).
  public static let invalid = CMTime(value: 0, timescale: 0, flags: [], epoch: 0)
  /// An unknown time, such as the duration of a live stream.
  public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)
  /// Later than every numeric time.
  public static let positiveInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)
  /// Earlier than every numeric time.
  public static let negativeInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)

  /// Whether the time is valid (numeric or one of the valid special times).
  public var isValid: Bool { flags.contains(.valid) }
  /// Whether the time is a valid number: neither invalid, indefinite nor infinite.
  public var isNumeric: Bool { isValid && flags.isDisjoint(with: .impliedValueFlagsMask) }
  /// Whether the time is valid and indefinite.
  public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
  /// Whether the time is valid and positive infinity.
  public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
  /// Whether the time is valid and negative infinity.
  public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }

  /// The time in seconds: NaN when invalid or indefinite, an infinity for the infinities.
  public var seconds: Double {
    if isNumeric { return Double(value) / Double(timescale) }
    if isPositiveInfinity { return .infinity }
    if isNegativeInfinity { return -.infinity }
    return .nan
  }

  /// Where the time falls in Core Media's order: negative infinity, numbers, indefinite,
  /// positive infinity, then invalid times.
  private var rank: Int {
    if !isValid { return 4 }
    if flags.contains(.positiveInfinity) { return 3 }
    if flags.contains(.indefinite) { return 2 }
    if flags.contains(.negativeInfinity) { return 0 }
    return 1
  }

  /// Orders times as Core Media does: numbers as rationals, between negative infinity and
  /// indefinite, positive infinity and invalid times after them.
  public static func < (lhs: CMTime, rhs: CMTime) -> Bool {
    guard lhs.rank == 1, rhs.rank == 1 else { return lhs.rank < rhs.rank }
    return Int128(lhs.value) * Int128(rhs.timescale) < Int128(rhs.value) * Int128(lhs.timescale)
  }

  /// Whether two times are equal: numbers compared exactly as rationals, special times by kind.
  public static func == (lhs: CMTime, rhs: CMTime) -> Bool {
    guard lhs.rank == 1, rhs.rank == 1 else { return lhs.rank == rhs.rank }
    return Int128(lhs.value) * Int128(rhs.timescale) == Int128(rhs.value) * Int128(lhs.timescale)
  }

  /// Hashes the time consistently with `==`.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(rank)
    if rank == 1 { hasher.combine(seconds) }
  }

  /// The sum of two times, exact when a common timescale fits (the shared one, else their least
  /// common multiple), rounded at the finer timescale otherwise. Invalid when either is invalid
  /// or the sum is of opposite infinities; indefinite or infinite when either is.
  public static func + (lhs: CMTime, rhs: CMTime) -> CMTime {
    combine(lhs, rhs, negatingRight: false)
  }

  /// The difference of two times, with the rules of `+`.
  public static func - (lhs: CMTime, rhs: CMTime) -> CMTime {
    combine(lhs, rhs, negatingRight: true)
  }

  private static func combine(_ lhs: CMTime, _ rhs: CMTime, negatingRight: Bool) -> CMTime {
    guard lhs.isValid, rhs.isValid else { return .invalid }
    let rightPositive = negatingRight ? rhs.isNegativeInfinity : rhs.isPositiveInfinity
    let rightNegative = negatingRight ? rhs.isPositiveInfinity : rhs.isNegativeInfinity
    if (lhs.isPositiveInfinity && rightNegative) || (lhs.isNegativeInfinity && rightPositive) { return .invalid }
    if lhs.isPositiveInfinity || rightPositive { return .positiveInfinity }
    if lhs.isNegativeInfinity || rightNegative { return .negativeInfinity }
    if lhs.isIndefinite || rhs.isIndefinite { return .indefinite }
    let scale = leastCommonMultiple(Int64(lhs.timescale), Int64(rhs.timescale))
    if scale <= Int64(Int32.max) {
      let left = lhs.value.multipliedReportingOverflow(by: scale / Int64(lhs.timescale))
      let right = rhs.value.multipliedReportingOverflow(by: scale / Int64(rhs.timescale))
      let result =
        negatingRight
        ? left.partialValue.subtractingReportingOverflow(right.partialValue)
        : left.partialValue.addingReportingOverflow(right.partialValue)
      if !left.overflow, !right.overflow, !result.overflow {
        return CMTime(value: result.partialValue, timescale: CMTimeScale(scale))
      }
    }
    let seconds = negatingRight ? lhs.seconds - rhs.seconds : lhs.seconds + rhs.seconds
    return CMTime(seconds: seconds, preferredTimescale: max(lhs.timescale, rhs.timescale))
  }

  private static func leastCommonMultiple(_ a: Int64, _ b: Int64) -> Int64 {
    var (x, y) = (a, b)
    while y != 0 { (x, y) = (y, x % y) }
    return a / x * b
  }

  /// A short readable form, for messages and logs.
  public var description: String {
    if isNumeric { return String(format: "%.3fs", seconds) }
    if isPositiveInfinity { return "+infinity" }
    if isNegativeInfinity { return "-infinity" }
    return isIndefinite ? "indefinite" : "invalid"
  }
}
