/// Whether the app may use speech recognition, as `SFSpeechRecognizer.authorizationStatus()` reports.
///
/// Recognition here runs on the machine and sends nothing anywhere, so there is no permission
/// to ask for: the status is always `.authorized`.
public enum SFSpeechRecognizerAuthorizationStatus: Int, Sendable {
  /// The user has not been asked yet.
  case notDetermined = 0
  /// The user refused.
  case denied = 1
  /// The device does not allow recognition.
  case restricted = 2
  /// Recognition may be used.
  case authorized = 3
}
