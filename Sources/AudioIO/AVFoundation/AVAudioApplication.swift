import Foundation
import Synchronization

/// The app's audio state, as iOS 17 and macOS 14 have it, for asking permission to record.
///
/// Linux has no per-app permission to record (access to capture devices is the user's group
/// membership), so permission is always granted; whether a microphone exists shows when the
/// engine starts.
public final class AVAudioApplication: Sendable {
  /// Posted when ``setInputMuted(_:)`` changes whether input is muted; its user info holds
  /// ``muteStateKey`` with the new state as an `NSNumber`.
  public static let inputMuteStateChangeNotification = Notification.Name(
    "AVAudioApplicationInputMuteStateChangeNotification")
  /// The user-info key of ``inputMuteStateChangeNotification``.
  public static let muteStateKey = "AVAudioApplicationMuteStateKey"

  /// Whether the app may record.
  public enum RecordPermission: Sendable {
    /// Not asked yet.
    case undetermined
    /// Refused.
    case denied
    /// Allowed.
    case granted
  }

  /// The app's one instance.
  public static let shared = AVAudioApplication()

  private let muted = Mutex(false)

  private init() {}

  /// Whether the app's audio input is muted: while it is, the engine's input node hands its taps
  /// silence, as Apple's does.
  public var isInputMuted: Bool { muted.withLock { $0 } }

  /// `captured` as the app hears it: silence while input is muted.
  func heard(_ captured: AudioBuffer) -> AudioBuffer {
    guard isInputMuted else { return captured }
    var silent = captured
    silent.samples = [Float](repeating: 0, count: captured.samples.count)
    return silent
  }

  /// Mutes or unmutes the app's audio input and posts ``inputMuteStateChangeNotification`` when
  /// that changes it.
  public func setInputMuted(_ isMuted: Bool) throws {
    let changed = muted.withLock { state in
      defer { state = isMuted }
      return state != isMuted
    }
    guard changed else { return }
    NotificationCenter.default.post(
      name: Self.inputMuteStateChangeNotification, object: self, userInfo: [Self.muteStateKey: NSNumber(value: isMuted)]
    )
  }

  /// Always `.granted` on Linux (see the type's notes).
  public var recordPermission: RecordPermission { .granted }

  /// Calls `response` with `true` at once, on the calling thread (see the type's notes).
  public static func requestRecordPermission(completionHandler response: @escaping @Sendable (Bool) -> Void) {
    response(true)
  }

  /// Returns `true` (see the type's notes).
  public static func requestRecordPermission() async -> Bool { true }
}
