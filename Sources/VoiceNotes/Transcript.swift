import Foundation

/// The text of a recording with where each part was spoken: what notes store and exports write.
public struct Transcript: Codable, Sendable, Equatable {
  /// One word and the audio it was heard in.
  public struct Word: Codable, Sendable, Equatable {
    /// The word as written, with its punctuation.
    public var text: String
    /// Start, in seconds from the beginning of the recording.
    public var start: Double
    /// End, in seconds from the beginning of the recording.
    public var end: Double
    /// The recognizer's confidence, 0 to 1, when known.
    public var confidence: Double?

    /// Creates a word spoken from `start` to `end` seconds.
    public init(text: String, start: Double, end: Double, confidence: Double? = nil) {
      self.text = text
      self.start = start
      self.end = end
      self.confidence = confidence
    }
  }

  /// A phrase or sentence, as the recognizer grouped it.
  public struct Segment: Codable, Sendable, Equatable {
    /// The segment's text.
    public var text: String
    /// Start, in seconds.
    public var start: Double
    /// End, in seconds.
    public var end: Double
    /// The segment's words with their times.
    public var words: [Word]
    /// Who speaks in the segment: an index into the note's speakers (from 0, shown as
    /// "Speaker 1"), or nil when the note's speakers are not told apart (one voice, or no
    /// diarization). Left out of the stored JSON when nil, so older transcripts read unchanged.
    public var speaker: Int?

    /// Creates a segment spoken from `start` to `end` seconds, by `speaker` when known.
    public init(text: String, start: Double, end: Double, words: [Word] = [], speaker: Int? = nil) {
      self.text = text
      self.start = start
      self.end = end
      self.words = words
      self.speaker = speaker
    }
  }

  /// The language transcribed (an ISO 639-1 code), when known.
  public var language: String?
  /// The length of the recording, in seconds.
  public var duration: Double
  /// The segments in order.
  public var segments: [Segment]

  /// Creates a transcript of a recording `duration` seconds long.
  public init(language: String? = nil, duration: Double, segments: [Segment]) {
    self.language = language
    self.duration = duration
    self.segments = segments
  }

  /// The whole text, segments joined by spaces.
  public var text: String { segments.map(\.text).joined(separator: " ") }
}
