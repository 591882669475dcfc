import Foundation

/// One word of a transcription, with where it is in the text and in the audio.
public final class SFTranscriptionSegment: @unchecked Sendable {
  /// The word as written.
  public let substring: String
  /// Where ``substring`` is in the transcription's `formattedString`.
  public let substringRange: NSRange
  /// Seconds from the start of the audio to the word.
  public let timestamp: TimeInterval
  /// How long the word lasts, in seconds.
  public let duration: TimeInterval
  /// The recognizer's confidence in the word, 0...1 (0 while the result is partial, as on Apple's
  /// platforms).
  public let confidence: Float
  /// Other spellings the recognizer considered (empty: Whisper keeps one reading of each word).
  public let alternativeSubstrings: [String]
  /// How the word was voiced, frame by frame, in a final result (Apple's older place for voice
  /// analytics, beside ``SFSpeechRecognitionMetadata/voiceAnalytics``).
  public let voiceAnalytics: SFVoiceAnalytics?

  /// Creates a segment.
  public init(
    substring: String, substringRange: NSRange, timestamp: TimeInterval, duration: TimeInterval, confidence: Float,
    alternativeSubstrings: [String] = [], voiceAnalytics: SFVoiceAnalytics? = nil
  ) {
    self.substring = substring
    self.substringRange = substringRange
    self.timestamp = timestamp
    self.duration = duration
    self.confidence = confidence
    self.alternativeSubstrings = alternativeSubstrings
    self.voiceAnalytics = voiceAnalytics
  }
}
