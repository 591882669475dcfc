import Foundation
import Testing
import VoiceNotes

@Suite("Transcript writers")
struct TranscriptWriterTests {
  let transcript = Transcript(
    language: "en", duration: 3725.5,
    segments: [
      .init(text: "Hello there.", start: 0.25, end: 1.5, words: [.init(text: "Hello", start: 0.25, end: 0.7)]),
      .init(text: "An hour later.", start: 3600, end: 3725.25),
    ])

  @Test("SubRip numbers cues and uses commas before milliseconds")
  func srt() {
    #expect(
      TranscriptFormat.srt.writer().render(transcript) == """
        1
        00:00:00,250 --> 00:00:01,500
        Hello there.

        2
        01:00:00,000 --> 01:02:05,250
        An hour later.


        """)
  }

  @Test("WebVTT starts with its header and uses dots")
  func vtt() {
    #expect(
      TranscriptFormat.vtt.writer().render(transcript).hasPrefix(
        "WEBVTT\n\n00:00:00.250 --> 00:00:01.500\nHello there.\n"))
  }

  @Test("plain text joins segments, or times each line")
  func text() {
    #expect(TranscriptFormat.txt.writer().render(transcript) == "Hello there. An hour later.\n")
    #expect(
      TranscriptFormat.txt.writer(timestamps: true).render(transcript)
        == "[00:00.250 --> 00:01.500] Hello there.\n[01:00:00.000 --> 01:02:05.250] An hour later.\n")
  }

  @Test("JSON round-trips the segments with words on request, and leaves words out otherwise")
  func json() throws {
    let plain = TranscriptFormat.json.writer().render(transcript)
    #expect(plain.contains("\"start\"") && !plain.contains("\"words\""), "\(plain)")
    let rendered = TranscriptFormat.json.writer(words: true).render(transcript)
    struct Document: Decodable {
      var text: String
      var segments: [Transcript.Segment]
    }
    let document = try JSONDecoder().decode(Document.self, from: Data(rendered.utf8))
    #expect(document.segments == transcript.segments)
    #expect(document.text == transcript.text)
  }
}

@Suite("Word error rate")
struct WordErrorRateTests {
  @Test("normalisation ignores case, punctuation, hyphens and spoken forms")
  func normalisation() {
    #expect(
      WordErrorRate(reference: "and mister john was ill disposed", hypothesis: "And Mr. John was ill-disposed.").edits
        == 0)
  }

  @Test("substitutions, deletions and insertions each count once")
  func edits() {
    #expect(WordErrorRate(reference: "a b c d", hypothesis: "a x c").edits == 2)
    #expect(WordErrorRate(reference: "a b", hypothesis: "a b c d").edits == 2)
    #expect(
      (WordErrorRate(reference: "a b", hypothesis: "a") + WordErrorRate(reference: "c d", hypothesis: "c d")).rate
        == 0.25)
  }
}
