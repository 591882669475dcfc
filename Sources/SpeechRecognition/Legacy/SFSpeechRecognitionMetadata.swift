import Foundation

/// How the speech of a final result was spoken: its rate, pauses and extent, measured from the
/// recognized words' times, and its voice analytics (pitch, voicing, jitter, shimmer), measured
/// from the audio.
public final class SFSpeechRecognitionMetadata: @unchecked Sendable {
  /// Words per minute over the speech.
  public let speakingRate: Double
  /// The mean pause between consecutive words, in seconds.
  public let averagePauseDuration: TimeInterval
  /// When the first word starts, in seconds from the start of the audio.
  public let speechStartTimestamp: TimeInterval
  /// From the start of the first word to the end of the last, in seconds.
  public let speechDuration: TimeInterval
  /// The voice frame by frame over the whole audio recognized; nil when the audio was not
  /// measured.
  public let voiceAnalytics: SFVoiceAnalytics?

  /// The metadata of `transcription`'s words and of the audio `voice` measured.
  init(_ transcription: SFTranscription, voice: VoiceAnalyticsMeter? = nil) {
    voiceAnalytics = voice?.analytics(from: 0, to: .infinity)
    speakingRate = transcription.speakingRate
    averagePauseDuration = transcription.averagePauseDuration
    let first = transcription.segments.first
    let last = transcription.segments.last
    speechStartTimestamp = first?.timestamp ?? 0
    speechDuration = last.map { $0.timestamp + $0.duration - (first?.timestamp ?? 0) } ?? 0
  }
}
