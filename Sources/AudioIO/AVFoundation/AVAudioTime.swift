import Foundation

/// A moment in an audio stream, as AVFoundation gives it to taps: a sample position at a rate,
/// and a host time (here nanoseconds of the system's monotonic clock).
public final class AVAudioTime: @unchecked Sendable {
  /// The position in frames from the start of the stream, when ``isSampleTimeValid``.
  public let sampleTime: AVAudioFramePosition
  /// The rate ``sampleTime`` counts at.
  public let sampleRate: Double
  /// The host clock's time, when ``isHostTimeValid``.
  public let hostTime: UInt64
  /// Whether ``sampleTime`` and ``sampleRate`` hold a position.
  public let isSampleTimeValid: Bool
  /// Whether ``hostTime`` holds a time.
  public let isHostTimeValid: Bool

  /// A time given by a sample position at `sampleRate`.
  public init(sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
    self.sampleTime = sampleTime
    self.sampleRate = sampleRate
    hostTime = 0
    isSampleTimeValid = true
    isHostTimeValid = false
  }

  /// A time given by the host clock.
  public init(hostTime: UInt64) {
    self.hostTime = hostTime
    sampleTime = 0
    sampleRate = 0
    isSampleTimeValid = false
    isHostTimeValid = true
  }

  /// A time given both ways.
  public init(hostTime: UInt64, sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
    self.hostTime = hostTime
    self.sampleTime = sampleTime
    self.sampleRate = sampleRate
    isSampleTimeValid = true
    isHostTimeValid = true
  }

  /// Host-clock ticks (nanoseconds) in `seconds`.
  public static func hostTime(forSeconds seconds: TimeInterval) -> UInt64 { UInt64(max(seconds, 0) * 1e9) }

  /// Seconds in `hostTime` ticks (nanoseconds).
  public static func seconds(forHostTime hostTime: UInt64) -> TimeInterval { TimeInterval(hostTime) / 1e9 }

  /// The host clock now, in nanoseconds since an arbitrary start (the monotonic clock).
  static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
}
