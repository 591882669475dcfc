/// The speech models loaded in this process, as Speech's `SpeechModels` names them.
public enum SpeechModels {
  /// Lets go of the models kept loaded for later analyzers (here every model stays loaded until
  /// the process ends, loading being the slow part). Analyses under way keep theirs; the next
  /// analyzer loads its model again.
  public static func endRetention() async {
    WhisperContext.releaseShared()
  }
}
