/// The state of a ``CMTime``: whether it holds a number, or one of Core Media's special times
/// (invalid, indefinite, positive or negative infinity).
public struct CMTimeFlags: OptionSet, Hashable, Sendable, Codable {
  /// The raw bits, as Core Media lays them out.
  public var rawValue: UInt32

  /// Flags from their raw bits.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// The time holds a value; without this flag it is invalid.
  public static let valid = CMTimeFlags(rawValue: 1 << 0)
  /// The value was rounded when the time was made or converted.
  public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)
  /// The time is positive infinity.
  public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)
  /// The time is negative infinity.
  public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)
  /// The time is unknown (indefinite), such as the duration of a live stream.
  public static let indefinite = CMTimeFlags(rawValue: 1 << 4)
  /// The flags that make a time special rather than numeric.
  public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}

/// The numerator of a ``CMTime``, as Core Media types it.
public typealias CMTimeValue = Int64
/// Ticks per second of a ``CMTime``, as Core Media types it.
public typealias CMTimeScale = Int32
/// The epoch of a ``CMTime``, as Core Media types it.
public typealias CMTimeEpoch = Int64
