/// Hears when a recognizer becomes available or unavailable.
public protocol SFSpeechRecognizerDelegate: AnyObject {
  /// Called on the recognizer's queue when ``SFSpeechRecognizer/isAvailable`` changes, for instance
  /// when its speech model is installed or removed.
  func speechRecognizer(_ speechRecognizer: SFSpeechRecognizer, availabilityDidChange available: Bool)
}

extension SFSpeechRecognizerDelegate {
  /// Does nothing; implement it to hear availability changes.
  public func speechRecognizer(_ speechRecognizer: SFSpeechRecognizer, availabilityDidChange available: Bool) {}
}
