import Foundation
import SpeechRecognition
import Testing

@testable import VoiceNotes

/// Labelling a transcript with a diarization's turns: segments split at turn boundaries by word
/// times, speakers numbered by when they first speak, one voice left unlabelled.
@Suite("Speaker labelling")
struct SpeakerLabellingTests {
  /// A vector pointing along axis `axis` (with a little of the next one), standing for a voice.
  static func voice(_ axis: Int, tilt: Float = 0) -> SpeakerEmbedding {
    var values = [Float](repeating: 0, count: 8)
    values[axis] = 1
    values[(axis + 1) % 8] = tilt
    return SpeakerEmbedding(values: values)
  }

  /// Words of `text` spoken one after another from `start`, each `length` seconds.
  static func words(_ text: String, from start: Double, length: Double = 0.4) -> [Transcript.Word] {
    text.split(separator: " ").enumerated().map { offset, word in
      Transcript.Word(
        text: String(word), start: start + Double(offset) * length, end: start + Double(offset + 1) * length)
    }
  }

  /// A two-person exchange: diarizer speaker 1 talks first (0–2 s), speaker 0 answers (2–4.4 s),
  /// inside one recognizer segment, then speaker 1 again in a segment of its own.
  static let exchange: (Transcript, SpeakerDiarization) = {
    let first = words("Did you book the room? Yes, I booked it", from: 0)  // 5 words to 2.0 s, then 4
    let second = words("Thanks, send me the invite.", from: 4.0)
    let transcript = Transcript(
      language: "en", duration: 6,
      segments: [
        .init(text: " Did you book the room? Yes, I booked it", start: 0, end: 3.6, words: first),
        .init(text: " Thanks, send me the invite.", start: 4.0, end: 5.6, words: second),
      ])
    let diarization = SpeakerDiarization(
      turns: [
        SpeakerTurn(speaker: 1, start: 0, end: 2.05), SpeakerTurn(speaker: 0, start: 2.05, end: 3.8),
        SpeakerTurn(speaker: 1, start: 3.9, end: 5.8),
      ],
      speakers: [
        .init(index: 0, embedding: voice(0), duration: 1.75), .init(index: 1, embedding: voice(1), duration: 4.05),
      ])
    return (transcript, diarization)
  }()

  @Test("a segment spoken by two people is cut where the second starts, by word times")
  func splitsAtTurnBoundary() {
    let (transcript, diarization) = Self.exchange
    let (labelled, speakers) = transcript.labelled(by: diarization)
    // The pieces of a cut segment are trimmed; a segment of one speaker keeps its text as it was.
    #expect(
      labelled.segments.map(\.text) == ["Did you book the room?", "Yes, I booked it", " Thanks, send me the invite."])
    // Renumbered by first appearance: the diarizer's speaker 1 speaks first, so it is Speaker 1 (index 0).
    #expect(labelled.segments.map(\.speaker) == [0, 1, 0])
    #expect(labelled.segments[1].start == 2.0)
    #expect(labelled.segments[0].end == 2.0)
    #expect(labelled.segments[0].start == 0 && labelled.segments[1].end == 3.6)
    #expect(labelled.segments.map(\.words.count) == [5, 4, 5])
    #expect(speakers.map(\.index) == [0, 1])
    #expect(speakers[0].embedding == Self.voice(1))
    #expect(speakers[1].duration == 1.75)
    #expect(labelled.text.split(separator: " ") == transcript.text.split(separator: " "), "no word lost or added")
  }

  @Test("a segment's last word stretched across the pause into the next turn stays with who said it")
  func stretchedLastWord() {
    // Whisper ends "them." at the next segment's start, 1.4 s after it began: 0.3 s of it in
    // speaker 0's turn, 0.7 s in speaker 1's.
    var first = Self.words("to do for them.", from: 6.0)
    first[3].end = 9.0
    let transcript = Transcript(
      language: "en", duration: 12,
      segments: [
        .init(text: " to do for them.", start: 6.0, end: 9.0, words: first),
        .init(
          text: " And so my fellow Americans,", start: 9.0, end: 11.0,
          words: Self.words("And so my fellow Americans,", from: 9.0)),
      ])
    let diarization = SpeakerDiarization(
      turns: [SpeakerTurn(speaker: 0, start: 0, end: 7.9), SpeakerTurn(speaker: 1, start: 8.3, end: 11.5)],
      speakers: [
        .init(index: 0, embedding: Self.voice(0), duration: 7.9),
        .init(index: 1, embedding: Self.voice(1), duration: 3.2),
      ])
    let (labelled, _) = transcript.labelled(by: diarization)
    #expect(labelled.segments.map(\.text) == [" to do for them.", " And so my fellow Americans,"])
    #expect(labelled.segments.map(\.speaker) == [0, 1])
  }

  @Test("one voice: the transcript stays as it was, with no speakers")
  func singleSpeakerUnlabelled() {
    let (transcript, _) = Self.exchange
    let one = SpeakerDiarization(
      turns: [SpeakerTurn(speaker: 0, start: 0, end: 6)],
      speakers: [.init(index: 0, embedding: Self.voice(0), duration: 6)])
    let (labelled, speakers) = transcript.labelled(by: one)
    #expect(labelled == transcript)
    #expect(speakers.isEmpty)
    #expect(!labelled.hasSpeakers)
  }

  @Test("a speaker no word is given to is left out, and the others are numbered without a gap")
  func silentSpeakerDropped() {
    let (transcript, diarization) = Self.exchange
    var turns = diarization.turns
    turns.append(SpeakerTurn(speaker: 2, start: 5.9, end: 6))
    let withNoise = SpeakerDiarization(
      turns: turns, speakers: diarization.speakers + [.init(index: 2, embedding: Self.voice(2), duration: 0.1)])
    let (labelled, speakers) = transcript.labelled(by: withNoise)
    #expect(speakers.count == 2)
    #expect(Set(labelled.segments.compactMap(\.speaker)) == [0, 1])
  }

  @Test("the analysis text has one line per turn, starting with the speaker's label")
  func labelledText() {
    let (transcript, diarization) = Self.exchange
    let (labelled, _) = transcript.labelled(by: diarization)
    #expect(
      labelled.speakerLabelledText(labels: [0: "Priya"])
        == "Priya: Did you book the room?\nSpeaker 2: Yes, I booked it\nPriya: Thanks, send me the invite.")
    #expect(transcript.speakerLabelledText(labels: [:]) == transcript.text, "unlabelled: the plain text")
  }

  @Test(
    "a transcript stored before speakers existed reads with no speakers, and one without speakers writes the same JSON")
  func codableCompatibility() throws {
    let old = #"{"duration":2,"segments":[{"end":2,"start":0,"text":"Hello.","words":[]}]}"#
    let decoded = try JSONDecoder().decode(Transcript.self, from: Data(old.utf8))
    #expect(decoded.segments[0].speaker == nil)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(String(decoding: try encoder.encode(decoded), as: UTF8.self) == old)
    var labelled = decoded
    labelled.segments[0].speaker = 1
    let again = try JSONDecoder().decode(Transcript.self, from: try encoder.encode(labelled))
    #expect(again.segments[0].speaker == 1)
  }

  @Test("voice memory: the same voice gets its name, a different one does not, no name twice in a note")
  func voiceMatching() {
    let priya = NamedVoice(name: "Priya", embedding: Self.voice(0))
    let omar = NamedVoice(name: "Omar", embedding: Self.voice(3))
    let speakers = [
      NoteSpeaker(index: 0, embedding: Self.voice(0, tilt: 0.3), duration: 5),  // Priya, a little different
      NoteSpeaker(index: 1, embedding: Self.voice(0, tilt: 0.6), duration: 5),  // also close to Priya, less so
      NoteSpeaker(index: 2, embedding: Self.voice(5), duration: 5),  // nobody known
    ]
    let found = VoiceMemory.matches(speakers, voices: [priya, omar])
    #expect(found[0]?.name == "Priya")
    #expect(found[1] == nil, "Priya is already speaker 1 of this note")
    #expect(found[2] == nil, "a voice unlike every named one stays unnamed")
    let recognised = VoiceMemory.recognise(speakers, among: [priya, omar])
    #expect(recognised.map(\.label) == ["Priya", "Speaker 2", "Speaker 3"])
    #expect(recognised.allSatisfy { !$0.isConfirmed })
    // A speaker the person confirmed keeps what they said, and its voice is not given to another.
    var confirmed = speakers
    confirmed[1].voiceID = priya.id
    confirmed[1].name = "Priya"
    confirmed[1].isConfirmed = true
    let kept = VoiceMemory.recognise(confirmed, among: [priya, omar])
    #expect(kept.map(\.label) == ["Speaker 1", "Priya", "Speaker 3"])
  }
}
