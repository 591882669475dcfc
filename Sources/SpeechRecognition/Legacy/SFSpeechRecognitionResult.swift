/// What a recognition task has recognized so far, or in the end.
///
/// As on Apple's platforms, each result covers all the audio of the task up to now: partial
/// results grow as speech comes in, and the one with ``isFinal`` set is the whole transcription.
public final class SFSpeechRecognitionResult: @unchecked Sendable {
  /// The most likely transcription.
  public let bestTranscription: SFTranscription
  /// The transcriptions considered, the best first (Whisper keeps one, so this holds
  /// ``bestTranscription``).
  public let transcriptions: [SFTranscription]
  /// Whether this is the task's last result.
  public let isFinal: Bool
  /// How the speech was spoken (rate, pauses, extent), on the final result; nil before it, as on
  /// Apple's platforms.
  public let speechRecognitionMetadata: SFSpeechRecognitionMetadata?

  /// Creates a result.
  public convenience init(bestTranscription: SFTranscription, transcriptions: [SFTranscription]? = nil, isFinal: Bool) {
    self.init(bestTranscription: bestTranscription, transcriptions: transcriptions, isFinal: isFinal, voice: nil)
  }

  /// A result whose metadata, when it is final, carries the voice analytics `voice` measured.
  init(
    bestTranscription: SFTranscription, transcriptions: [SFTranscription]? = nil, isFinal: Bool,
    voice: VoiceAnalyticsMeter?
  ) {
    self.bestTranscription = bestTranscription
    self.transcriptions = transcriptions ?? [bestTranscription]
    self.isFinal = isFinal
    speechRecognitionMetadata = isFinal ? SFSpeechRecognitionMetadata(bestTranscription, voice: voice) : nil
  }
}
