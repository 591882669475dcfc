import AudioIO
import Foundation
import SpeechRecognition
import Testing

/// `AttributedString.rangeOfAudioTimeRangeAttributes(intersecting:)` on transcription text.
@Suite("Finding text by audio time")
struct AudioTimeRangeTextTests {
  /// "ask not what your country" with a time range on each word (a space between words has none),
  /// and a pause between "not" and "what".
  private var transcript: AttributedString {
    let words: [(String, Double, Double)] = [
      ("ask", 0.0, 0.4), ("not", 0.4, 0.9), ("what", 1.5, 1.8), ("your", 1.8, 2.0), ("country", 2.0, 2.6),
    ]
    var text = AttributedString()
    for (index, (word, start, end)) in words.enumerated() {
      if index > 0 { text += AttributedString(" ") }
      var run = AttributedString(word)
      run[AttributeScopes.SpeechAttributes.TimeRangeAttribute.self] = CMTimeRange(
        start: CMTime(seconds: start, preferredTimescale: 1_000), end: CMTime(seconds: end, preferredTimescale: 1_000))
      text += run
    }
    return text
  }

  private func text(heardDuring start: Double, _ end: Double) -> String? {
    let text = transcript
    let time = CMTimeRange(
      start: CMTime(seconds: start, preferredTimescale: 1_000), end: CMTime(seconds: end, preferredTimescale: 1_000))
    return text.rangeOfAudioTimeRangeAttributes(intersecting: time).map { String(text[$0].characters) }
  }

  @Test("a span of audio finds the words heard in it, spaces between included")
  func spans() {
    #expect(text(heardDuring: 0.5, 1.9) == "not what your")
    #expect(text(heardDuring: 0, 3) == "ask not what your country")
    #expect(text(heardDuring: 2.5, 9) == "country")
  }

  @Test("a moment finds the word playing then, as playback highlighting asks")
  func moments() {
    // As Apple's sample highlights the word being played.
    let transcript = transcript
    let playing = CMTimeRange(start: CMTimeMakeWithSeconds(1.6, preferredTimescale: 600), duration: .zero)
    if let range = transcript.rangeOfAudioTimeRangeAttributes(intersecting: playing) {
      #expect(String(transcript[range].characters) == "what")
    } else {
      Issue.record("no word at 1.6 s")
    }
    #expect(text(heardDuring: 0.4, 0.4) == "not", "a word's start belongs to it, not to the word before")
  }

  @Test("audio with no words, or text with no time ranges, finds nothing")
  func nothing() {
    #expect(text(heardDuring: 1.0, 1.4) == nil, "the pause")
    #expect(text(heardDuring: 3, 4) == nil)
    #expect(
      AttributedString("plain").rangeOfAudioTimeRangeAttributes(
        intersecting: CMTimeRange(start: .zero, duration: CMTimeMake(value: 5, timescale: 1))) == nil)
    #expect(transcript.rangeOfAudioTimeRangeAttributes(intersecting: .invalid) == nil)
  }
}
