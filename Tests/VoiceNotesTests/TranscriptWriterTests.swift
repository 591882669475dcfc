import Foundation
import SpeechRecognition
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

@Suite("Exports with speakers")
struct SpeakerExportTests {
  /// A note of two speakers, the second named Priya; segments 1 and 2 are both Speaker 1's.
  let note: VoiceNote = {
    var note = VoiceNote(
      id: "0a1b2c3d-0000-4000-8000-000000000000", createdAt: Date(timeIntervalSinceReferenceDate: 800_000_000),
      duration: 9, audioFileName: "a.wav", originalFileName: "meeting.wav")
    note.transcript = Transcript(
      language: "en", duration: 9,
      segments: [
        .init(text: "Did you book the room?", start: 0, end: 2, speaker: 0),
        .init(text: "And the projector?", start: 2, end: 3.5, speaker: 0),
        .init(text: "Yes, both.", start: 4, end: 5, speaker: 1),
      ])
    note.speakers = [
      NoteSpeaker(index: 0, embedding: SpeakerEmbedding(values: [1, 0]), duration: 3.5),
      NoteSpeaker(
        index: 1, embedding: SpeakerEmbedding(values: [0, 1]), duration: 1, voiceID: "v", name: "Priya",
        isConfirmed: true),
    ]
    return note
  }()

  @Test("subtitles carry the name: WebVTT as a voice span, SubRip before the text")
  func subtitles() throws {
    let vtt = try NoteExportFormat.vtt.render(note)
    #expect(vtt.contains("00:00:04.000 --> 00:00:05.000\n<v Priya>Yes, both.\n"), "\(vtt)")
    #expect(vtt.contains("<v Speaker 1>Did you book the room?\n"), "\(vtt)")
    let srt = try NoteExportFormat.srt.render(note)
    #expect(srt.contains("3\n00:00:04,000 --> 00:00:05,000\nPriya: Yes, both.\n"), "\(srt)")
  }

  @Test("Markdown has one paragraph per turn and lists the speakers; JSON has speaker fields")
  func markdownAndJSON() throws {
    let markdown = try NoteExportFormat.md.render(note)
    #expect(
      markdown.contains(
        "## Transcript\n\n[0:00] Speaker 1: Did you book the room? And the projector?\n\n[0:04] Priya: Yes, both.\n"),
      "\(markdown)")
    #expect(markdown.contains("## Speakers\n\n- Speaker 1, 0:04\n- Priya (speaker 2), 0:01\n"), "\(markdown)")
    let json = try NoteExportFormat.json.render(note)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let segments = try #require((object["transcript"] as? [String: Any])?["segments"] as? [[String: Any]])
    #expect(segments.map { $0["speaker"] as? String } == ["Speaker 1", "Speaker 1", "Priya"])
    #expect(segments.map { $0["speakerNumber"] as? Int } == [1, 1, 2])
    let speakers = try #require(object["speakers"] as? [[String: Any]])
    #expect(speakers.map { $0["label"] as? String } == ["Speaker 1", "Priya"])
    #expect(speakers[1]["confirmed"] as? Bool == true)
    #expect(
      try NoteExportFormat.txt.render(note)
        == "Speaker 1: Did you book the room? And the projector?\nPriya: Yes, both.\n")
  }

  @Test("a note without speakers exports exactly as before")
  func unlabelledUnchanged() throws {
    var plain = note
    plain.speakers = []
    let unlabelled = note.transcript!.segments.map { segment in
      var segment = segment
      segment.speaker = nil
      return segment
    }
    plain.transcript?.segments = unlabelled
    #expect(try NoteExportFormat.srt.render(plain) == TranscriptFormat.srt.writer().render(plain.transcript!))
    #expect(!(try NoteExportFormat.vtt.render(plain)).contains("<v "))
    let json = try NoteExportFormat.json.render(plain)
    #expect(!json.contains("speaker"), "\(json)")
    let markdown = try NoteExportFormat.md.render(plain)
    #expect(markdown.contains("## Transcript\n\n[0:00] Did you book the room?\n[0:02] And the projector?\n"))
    #expect(!markdown.contains("Speakers"))
  }
}
