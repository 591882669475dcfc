import Foundation

/// A transcription of some speech: the text, and the words with their times.
public final class SFTranscription: @unchecked Sendable {
  /// The text as it would be written.
  public let formattedString: String
  /// The words, in order.
  public let segments: [SFTranscriptionSegment]

  /// Creates a transcription.
  public init(formattedString: String, segments: [SFTranscriptionSegment]) {
    self.formattedString = formattedString
    self.segments = segments
  }

  /// Words per minute over the transcribed speech (0 with fewer than two words).
  public var speakingRate: Double {
    guard segments.count > 1, let first = segments.first, let last = segments.last else { return 0 }
    let minutes = (last.timestamp + last.duration - first.timestamp) / 60
    return minutes > 0 ? Double(segments.count) / minutes : 0
  }

  /// The mean gap between consecutive words, in seconds.
  public var averagePauseDuration: TimeInterval {
    guard segments.count > 1 else { return 0 }
    let gaps = zip(segments, segments.dropFirst()).map { max($1.timestamp - ($0.timestamp + $0.duration), 0) }
    return gaps.reduce(0, +) / Double(gaps.count)
  }

  /// A transcription of `words` (text, start, duration, confidence), joined by spaces; with
  /// `punctuated` false, punctuation is removed as Apple's recognizer does without
  /// `addsPunctuation`.
  static func joining(
    _ words: [(text: String, start: Double, duration: Double, confidence: Float)], punctuated: Bool,
    voice: VoiceAnalyticsMeter? = nil
  ) -> SFTranscription {
    var text = ""
    var segments: [SFTranscriptionSegment] = []
    for word in words {
      let written = punctuated ? word.text : unpunctuated(word.text)
      guard !written.isEmpty else { continue }
      if !text.isEmpty { text += " " }
      let location = (text as NSString).length
      text += written
      segments.append(
        SFTranscriptionSegment(
          substring: written, substringRange: NSRange(location: location, length: (written as NSString).length),
          timestamp: word.start, duration: word.duration, confidence: word.confidence,
          voiceAnalytics: voice?.analytics(from: word.start, to: word.start + word.duration)))
    }
    return SFTranscription(formattedString: text, segments: segments)
  }

  /// `word` without punctuation, and without apostrophes or hyphens left at its ends.
  private static func unpunctuated(_ word: String) -> String {
    word.withoutPunctuation.trimmingCharacters(in: CharacterSet(charactersIn: "-'’"))
  }

}
