import Foundation

/// The `verbose_json` reply of an OpenAI-compatible `/v1/audio/transcriptions` endpoint, and its
/// segments in the shape a ``TranscriptionBackend`` delivers.
///
/// Servers differ in where they put words: OpenAI lists them once for the whole reply (`words`,
/// each a bare word), whisper.cpp's `whisper-server` inside each segment, one entry per token
/// with its leading space and probability. Both are read.
struct VerboseTranscription: Decodable, Sendable, Equatable {
  /// A segment as the server sent it.
  struct Segment: Decodable, Sendable, Equatable {
    var start: Double?
    var end: Double?
    var text: String
    var words: [Word]?
  }

  /// A word (or, from whisper-server, a token) as the server sent it.
  struct Word: Decodable, Sendable, Equatable {
    var word: String
    var start: Double?
    var end: Double?
    var probability: Double?
  }

  /// The language, as a name (`english`) or a code (`en`), depending on the server.
  var language: String?
  /// The whole text.
  var text: String
  /// The audio's length in seconds, when given.
  var duration: Double?
  /// The segments, when given.
  var segments: [Segment]?
  /// Words for the whole reply (OpenAI's layout), when given.
  var words: [Word]?

  /// Reads a reply.
  ///
  /// - Throws: `DecodingError` when `body` is not a `verbose_json` transcription.
  init(json body: [UInt8]) throws {
    self = try JSONDecoder().decode(VerboseTranscription.self, from: Data(body))
  }

  /// The reply's segments, each with its words, with every time moved later by `offset` seconds
  /// (where the piece of audio the reply is for starts in the recording).
  ///
  /// A reply without segments becomes one segment of the whole text from `offset` to `offset +
  /// duration`; words listed for the whole reply go to the segment their middle falls in.
  func transcribedSegments(offset: Double, duration pieceDuration: Double) -> [TranscribedSegment] {
    let tokenStyle = Self.isTokenStyle(segments?.flatMap { $0.words ?? [] } ?? words ?? [])
    var result: [TranscribedSegment] =
      (segments ?? []).map { segment in
        let start = segment.start ?? 0
        let end = max(segment.end ?? start, start)
        return TranscribedSegment(
          start: start, end: end, text: segment.text,
          words: Self.words(segment.words ?? [], tokenStyle: tokenStyle, start: start, end: end))
      }
    if result.isEmpty, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      let end = duration ?? pieceDuration
      result = [TranscribedSegment(start: 0, end: end, text: text, words: [])]
    }
    if let words, !words.isEmpty, result.allSatisfy(\.words.isEmpty), !result.isEmpty {
      var assigned = Array(repeating: [Word](), count: result.count)
      for word in words {
        let middle = ((word.start ?? 0) + (word.end ?? word.start ?? 0)) / 2
        let index = result.lastIndex { $0.start <= middle } ?? 0
        assigned[index].append(word)
      }
      for index in result.indices {
        result[index].words = Self.words(
          assigned[index], tokenStyle: tokenStyle, start: result[index].start, end: result[index].end)
      }
    }
    return result.map { $0.offset(by: offset) }
  }

  /// The ISO 639-1 code of ``language``, or nil when the reply names none or one Whisper does not know.
  var languageCode: String? {
    guard let language = language?.trimmingCharacters(in: .whitespaces).lowercased(), !language.isEmpty else {
      return nil
    }
    return WhisperContext.languageCode(named: language)
  }

  /// Whether `words` are tokens (whisper-server: entries after the first start with a space, or
  /// run on inside a word) rather than bare words (OpenAI).
  private static func isTokenStyle(_ words: [Word]) -> Bool {
    words.dropFirst().contains { $0.word.first?.isWhitespace == true }
  }

  /// `words` as the words of a segment from `start` to `end`: tokens grouped into words (a token
  /// that starts with a space starts a word; punctuation sticks to the word before), bare words
  /// given a space before each but the first. Missing times take the segment's.
  private static func words(_ words: [Word], tokenStyle: Bool, start: Double, end: Double) -> [TranscribedSegment.Word]
  {
    var output: [TranscribedSegment.Word] = []
    for word in words where !word.word.isEmpty {
      let wordStart = word.start ?? start
      let wordEnd = max(word.end ?? end, wordStart)
      if tokenStyle {
        if word.word.first?.isWhitespace == true || output.isEmpty {
          output.append(.init(text: word.word, start: wordStart, end: wordEnd, probability: word.probability))
        } else {
          let last = output.count - 1
          output[last].text += word.word
          output[last].end = max(output[last].end, wordEnd)
          if let probability = word.probability {
            output[last].probability = min(output[last].probability ?? probability, probability)
          }
        }
      } else {
        let text = output.isEmpty ? word.word : " " + word.word
        output.append(.init(text: text, start: wordStart, end: wordEnd, probability: word.probability))
      }
    }
    return output
  }
}
