/// The app's audio state, as iOS 17 and macOS 14 have it, for asking permission to record.
///
/// Linux has no per-app permission to record (access to capture devices is the user's group
/// membership), so permission is always granted; whether a microphone exists shows when the
/// engine starts.
public final class AVAudioApplication: Sendable {
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

  private init() {}

  /// Always `.granted` on Linux (see the type's notes).
  public var recordPermission: RecordPermission { .granted }

  /// Calls `response` with `true` at once, on the calling thread (see the type's notes).
  public static func requestRecordPermission(completionHandler response: @escaping @Sendable (Bool) -> Void) {
    response(true)
  }

  /// Returns `true` (see the type's notes).
  public static func requestRecordPermission() async -> Bool { true }
}
