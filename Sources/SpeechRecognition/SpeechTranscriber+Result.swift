import AudioIO
import Foundation

extension SpeechTranscriber {
  /// A stretch of transcribed speech.
  ///
  /// `text` holds the words; with ``ResultAttributeOption/audioTimeRange`` each word is a run
  /// carrying its `audioTimeRange`, and with ``ResultAttributeOption/transcriptionConfidence`` its
  /// `transcriptionConfidence`. With a custom language model, ``matchedPhrase`` says which of the
  /// model's phrases the result is.
  public struct Result: SpeechModuleResult, Sendable, Equatable {
    /// The transcribed text, without leading or trailing spaces.
    public var text: AttributedString
    /// Other readings of the same audio, most likely first (empty: Whisper reports one reading).
    public var alternatives: [AttributedString]
    /// The audio this result covers.
    public var range: CMTimeRange
    /// Audio before this time will produce no further changes to results.
    public var resultsFinalizationTime: CMTime
    /// The phrase of the transcriber's custom language model (a phrase or a template expansion,
    /// as the model spells it) that the whole result says, or nil when it says none or the
    /// transcriber has no custom model. `text` is then written as the model spells the phrase,
    /// with Whisper's punctuation around it.
    ///
    /// This is our extension: Apple's results do not report it.
    public var matchedPhrase: String?

    /// Creates a result; mostly for tests and for modules built on this one.
    public init(
      text: AttributedString, alternatives: [AttributedString] = [], range: CMTimeRange,
      resultsFinalizationTime: CMTime,
      matchedPhrase: String? = nil
    ) {
      self.text = text
      self.alternatives = alternatives
      self.range = range
      self.resultsFinalizationTime = resultsFinalizationTime
      self.matchedPhrase = matchedPhrase
    }

    /// A result for `range` whose text is `words` (as a backend delivered them), rewritten by
    /// `steering` (see ``LanguageModelSteering/process(_:)``) when there is one. The text may be empty.
    init(
      words: [TranscribedSegment.Word], range: CMTimeRange, resultsFinalizationTime: CMTime,
      attributes: Set<ResultAttributeOption>, steering: LanguageModelSteering?
    ) async throws {
      guard let steering else {
        self.init(words: words, range: range, resultsFinalizationTime: resultsFinalizationTime, attributes: attributes)
        return
      }
      let processed = try await steering.process(words.map(\.token))
      self.init(
        words: processed.words.map(TranscribedSegment.Word.init), range: range,
        resultsFinalizationTime: resultsFinalizationTime, attributes: attributes, matchedPhrase: processed.phrase)
    }

    /// A result for `range` whose text is `words` (tokens already grouped by ``words(of:)``, times
    /// in seconds on the same timeline as `range`), with the requested attributes on each word.
    /// The text may be empty.
    init(
      words: [WhisperSegment.Token], range: CMTimeRange, resultsFinalizationTime: CMTime,
      attributes: Set<ResultAttributeOption>, matchedPhrase: String? = nil
    ) {
      self.init(
        words: words.map(TranscribedSegment.Word.init), range: range, resultsFinalizationTime: resultsFinalizationTime,
        attributes: attributes, matchedPhrase: matchedPhrase)
    }

    /// A result for `range` whose text is `words` (times in seconds on the same timeline as
    /// `range`), with the requested attributes on each word: a confidence only where the word has
    /// a probability. The text may be empty.
    init(
      words: [TranscribedSegment.Word], range: CMTimeRange, resultsFinalizationTime: CMTime,
      attributes: Set<ResultAttributeOption>, matchedPhrase: String? = nil
    ) {
      var text = AttributedString()
      for (index, word) in words.enumerated() {
        var spelled = word.text
        if index == 0 { spelled = String(spelled.drop(while: \.isWhitespace)) }
        if index == words.count - 1 { spelled = String(spelled.reversed().drop(while: \.isWhitespace).reversed()) }
        guard !spelled.isEmpty else { continue }
        var run = AttributedString(spelled)
        if attributes.contains(.audioTimeRange) {
          run.speech.audioTimeRange = CMTimeRange(
            start: CMTime(seconds: word.start, preferredTimescale: 1000),
            end: CMTime(seconds: max(word.end, word.start), preferredTimescale: 1000))
        }
        if attributes.contains(.transcriptionConfidence), let probability = word.probability {
          run.speech.transcriptionConfidence = probability
        }
        text.append(run)
      }
      self.init(
        text: text, range: range, resultsFinalizationTime: resultsFinalizationTime, matchedPhrase: matchedPhrase)
    }

    /// Groups tokens into words: a token that starts with a space begins a new word.
    static func words(of tokens: [WhisperSegment.Token]) -> [WhisperSegment.Token] {
      var words: [WhisperSegment.Token] = []
      for token in tokens where !token.bytes.isEmpty {
        let startsWord = token.bytes.first == UInt8(ascii: " ") || words.isEmpty
        // Punctuation sticks to the word before it.
        if startsWord {
          words.append(token)
        } else {
          words[words.count - 1].bytes += token.bytes
          words[words.count - 1].end = max(words[words.count - 1].end, token.end)
          words[words.count - 1].probability = min(words[words.count - 1].probability, token.probability)
        }
      }
      return words
    }
  }
}
