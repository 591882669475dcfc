import Foundation

/// A stretch of transcribed speech as a ``TranscriptionBackend`` delivers it: times in seconds from
/// the start of the recording, the text, and its words.
public struct TranscribedSegment: Sendable, Equatable {
  /// One word: its text as it appears in the segment (with the space before it, when there is
  /// one, so the words joined give the text), its time range and its probability.
  public struct Word: Sendable, Equatable {
    /// The word as written in the segment, with its leading space and trailing punctuation.
    public var text: String
    /// When the word starts, in seconds.
    public var start: Double
    /// When the word ends, in seconds.
    public var end: Double
    /// How likely the recognizer thought the word (0...1), or nil when it does not say.
    public var probability: Double?

    /// A word `text` spoken from `start` to `end` seconds, with `probability` when known.
    public init(text: String, start: Double, end: Double, probability: Double? = nil) {
      self.text = text
      self.start = start
      self.end = end
      self.probability = probability
    }
  }

  /// When the segment starts, in seconds.
  public var start: Double
  /// When the segment ends, in seconds.
  public var end: Double
  /// The segment's text, as the recognizer wrote it.
  public var text: String
  /// The segment's words, in order; empty when the backend gave no word times.
  public var words: [Word]

  /// A segment from `start` to `end` seconds saying `text`, made of `words`.
  public init(start: Double, end: Double, text: String, words: [Word] = []) {
    self.start = start
    self.end = end
    self.text = text
    self.words = words
  }

  /// The segment with every time moved later by `seconds` (a piece of a longer recording).
  public func offset(by seconds: Double) -> TranscribedSegment {
    TranscribedSegment(
      start: start + seconds, end: end + seconds, text: text,
      words: words.map {
        Word(text: $0.text, start: $0.start + seconds, end: $0.end + seconds, probability: $0.probability)
      })
  }
}
