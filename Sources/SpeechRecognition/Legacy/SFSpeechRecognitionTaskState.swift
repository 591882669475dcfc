/// Where a recognition task is in its life.
public enum SFSpeechRecognitionTaskState: Int, Sendable {
  /// Set up, before the first audio is analysed.
  case starting = 0
  /// Analysing audio.
  case running = 1
  /// No more audio will come; the last results are being produced.
  case finishing = 2
  /// Cancelled; no more results will come.
  case canceling = 3
  /// Done, with a final result or an error.
  case completed = 4
}
