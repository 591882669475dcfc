import Foundation
import Testing

@testable import SpeechRecognition

/// Reading `verbose_json` replies into segments and words: whisper-server's layout (words per
/// segment, one entry per token) and OpenAI's (bare words for the whole reply), offsets for the
/// pieces of a long recording, and the language's name turned into a code.
@Suite("verbose_json mapping")
struct VerboseTranscriptionTests {
  /// A reply as whisper-server 1.8.5 writes it (trimmed): tokens with leading spaces, punctuation
  /// as its own token, probabilities, the language as a name.
  let whisperServer = """
    {"task":"transcribe","language":"english","duration":11.0,"text":" And so my fellow Americans, ask not.",
     "segments":[
      {"id":0,"text":" And so my fellow Americans,","start":0.0,"end":3.2,
       "words":[{"word":" And","start":0.0,"end":0.5,"t_dtw":-1,"probability":0.9},
                {"word":" so","start":0.5,"end":0.8,"probability":0.8},
                {"word":" my","start":0.8,"end":1.1,"probability":0.95},
                {"word":" fel","start":1.1,"end":1.4,"probability":0.7},
                {"word":"low","start":1.4,"end":1.7,"probability":0.6},
                {"word":" Americans","start":1.7,"end":3.0,"probability":0.99},
                {"word":",","start":3.0,"end":3.2,"probability":0.5}],
       "temperature":0.0,"avg_logprob":-0.2,"no_speech_prob":0.01},
      {"id":1,"text":" ask not.","start":3.2,"end":5.0,
       "words":[{"word":" ask","start":3.4,"end":3.9,"probability":0.9},
                {"word":" not","start":3.9,"end":4.6,"probability":0.9},
                {"word":".","start":4.6,"end":5.0,"probability":0.9}]}]}
    """

  @Test("whisper-server's tokens become words: a leading space starts one, the rest run on")
  func whisperServerTokens() throws {
    let reply = try VerboseTranscription(json: Array(whisperServer.utf8))
    let segments = reply.transcribedSegments(offset: 0, duration: 11)
    #expect(segments.count == 2)
    #expect(segments[0].words.map(\.text) == [" And", " so", " my", " fellow", " Americans,"])
    let fellow = segments[0].words[3]
    #expect(fellow.start == 1.1 && fellow.end == 1.7 && fellow.probability == 0.6)
    #expect(segments[0].words[4].end == 3.2 && segments[0].words[4].probability == 0.5)
    #expect(segments[1].words.map(\.text).joined() == " ask not.")
    #expect(segments[1].start == 3.2 && segments[1].end == 5.0)
    #expect(reply.languageCode == "en")
  }

  @Test("a piece's times are moved to where it lies in the recording")
  func offsets() throws {
    let reply = try VerboseTranscription(json: Array(whisperServer.utf8))
    let segments = reply.transcribedSegments(offset: 300, duration: 11)
    #expect(segments.map(\.start) == [300, 303.2])
    #expect(segments[1].end == 305)
    #expect(segments[1].words.map(\.start) == [303.4, 303.9])
  }

  @Test("OpenAI's layout: bare words for the whole reply go to the segment they fall in")
  func openAIWords() throws {
    let json = """
      {"task":"transcribe","language":"german","duration":6.5,"text":"Guten Morgen. Wie geht's?",
       "words":[{"word":"Guten","start":0.1,"end":0.5},{"word":"Morgen.","start":0.5,"end":1.2},
                {"word":"Wie","start":3.0,"end":3.3},{"word":"geht's?","start":3.3,"end":4.0}],
       "segments":[{"id":0,"seek":0,"start":0.0,"end":2.0,"text":" Guten Morgen.","tokens":[1,2],
                    "temperature":0.0,"avg_logprob":-0.3,"compression_ratio":1.0,"no_speech_prob":0.1},
                   {"id":1,"seek":0,"start":2.5,"end":4.2,"text":" Wie geht's?"}]}
      """
    let reply = try VerboseTranscription(json: Array(json.utf8))
    let segments = reply.transcribedSegments(offset: 10, duration: 6.5)
    #expect(segments.map { $0.words.map(\.text) } == [["Guten", " Morgen."], ["Wie", " geht's?"]])
    #expect(segments[1].words[0].start == 13 && segments[1].words[0].probability == nil)
    #expect(reply.languageCode == "de")
  }

  @Test("a reply with only text is one segment over the whole piece; a code is kept as a code")
  func textOnly() throws {
    let reply = try VerboseTranscription(json: Array(#"{"text":" Hello there.","language":"en"}"#.utf8))
    let segments = reply.transcribedSegments(offset: 5, duration: 2.5)
    #expect(segments == [TranscribedSegment(start: 5, end: 7.5, text: " Hello there.")])
    #expect(reply.languageCode == "en")
  }

  @Test("a reply that is not verbose_json is an error")
  func notVerbose() {
    #expect(throws: DecodingError.self) { try VerboseTranscription(json: Array(#"{"segments":[]}"#.utf8)) }
  }
}
