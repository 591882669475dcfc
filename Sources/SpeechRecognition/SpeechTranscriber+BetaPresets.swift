// The preset names of the first Speech 26 betas, which the WWDC25 session code and many tutorials
// written before the release still use. Each keeps the options its beta documented, so code
// written against the beta behaves as it did; the fix-it names the release preset closest to it.

extension SpeechTranscriber.Preset {
  /// The beta name of ``transcription``: accurate final text, nothing else.
  @available(*, deprecated, renamed: "transcription")
  public static let offlineTranscription = transcription

  /// The beta name of ``transcriptionWithAlternatives``: final text with alternatives.
  @available(*, deprecated, renamed: "transcriptionWithAlternatives")
  public static let offlineTranscriptionWithAlternatives = transcriptionWithAlternatives

  /// The beta name of ``timeIndexedTranscriptionWithAlternatives``: final text with alternatives
  /// and each word's audio time range.
  @available(*, deprecated, renamed: "timeIndexedTranscriptionWithAlternatives")
  public static let timeIndexedOfflineTranscriptionWithAlternatives = timeIndexedTranscriptionWithAlternatives

  /// The beta preset for live transcription: volatile results, finalized after short pauses
  /// (`.frequentFinalization`). The release's ``progressiveTranscription`` has `.fastResults`
  /// instead of `.frequentFinalization`.
  @available(
    *, deprecated, renamed: "progressiveTranscription",
    message: "progressiveTranscription favours fast results instead of finalizing frequently"
  )
  public static let progressiveLiveTranscription = SpeechTranscriber.Preset(
    transcriptionOptions: [], reportingOptions: [.volatileResults, .frequentFinalization], attributeOptions: [])

  /// The beta preset for captions: no volatile results, final results after short pauses
  /// (`.frequentFinalization`), each word with its audio time range. The release has no preset
  /// with these options; ``timeIndexedProgressiveTranscription`` is the nearest.
  @available(
    *, deprecated, renamed: "timeIndexedProgressiveTranscription",
    message: "timeIndexedProgressiveTranscription also reports volatile results and favours fast results"
  )
  public static let timeIndexedLiveCaptioning = SpeechTranscriber.Preset(
    transcriptionOptions: [], reportingOptions: [.frequentFinalization], attributeOptions: [.audioTimeRange])
}
