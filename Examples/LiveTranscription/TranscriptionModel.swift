/// What the screen shows: the text so far, and whether the microphone is on.
struct TranscriptionModel: Sendable {
  /// Final text: it will not change any more.
  var finalizedText = ""
  /// The volatile (tentative) text for the speech since the last final result.
  var currentText = ""
  /// Whether audio is being captured.
  var isRecording = false
  /// The last error, shown in red until the next start or clear.
  var errorMessage: String?
}
