import Foundation
import Testing

@testable import SpeechRecognition

/// The rules that pick which greedily decoded segments the beam decodes again, and over which
/// samples; the decoding itself is covered by the accuracy tests on real speech.
@Suite("Segment recheck")
struct SegmentRecheckTests {
  let recheck = SegmentRecheck()
  let sampleRate = 16_000.0

  func token(_ text: String, _ probability: Float) -> WhisperSegment.Token {
    WhisperSegment.Token(bytes: Array(text.utf8), start: 0, end: 0, probability: probability)
  }

  @Test("a segment is unsure when a word token is unlikely; punctuation does not count")
  func unsureWords() {
    #expect(!recheck.isUnsure([token(" He", 0.9), token(" was", 0.99), token(".", 0.3)]))
    #expect(recheck.isUnsure([token(" ill", 0.9), token("-", 0.9), token("sp", 0.5), token("osed", 0.97)]))
    #expect(recheck.isUnsure([token(" 42", 0.4)]))
    #expect(!recheck.isUnsure([]))
  }

  /// Speech (a loud tone) from `speech` seconds, with near-silence elsewhere, `length` seconds long.
  func signal(length: Double, speech: [ClosedRange<Double>]) -> [Float] {
    (0..<Int(length * sampleRate)).map { index in
      let time = Double(index) / sampleRate
      let loud = speech.contains { $0.contains(time) }
      return loud ? Float(0.5 * sin(2 * .pi * 220 * time)) : Float(0.001 * sin(2 * .pi * 50 * time))
    }
  }

  @Test("the cut moves out to the pause when Whisper's times fall inside a word")
  func cutsAtPauses() {
    // Words at 0.5-2.0 s, 2.25-4.0 s and 4.3-6.0 s; Whisper says the middle segment runs 2.35-3.85 s.
    let audio = signal(length: 6.5, speech: [0.5...2.0, 2.25...4.0, 4.3...6.0])
    let range = recheck.audioRange(of: 2.35...3.85, endsWindow: false, in: audio, sampleRate: sampleRate)
    let start = Double(range.lowerBound) / sampleRate
    let end = Double(range.upperBound) / sampleRate
    #expect(start > 2.0 && start < 2.25, "start \(start)")
    #expect(end > 4.0 && end < 4.3, "end \(end)")
  }

  @Test("a segment that ends Whisper's window is not cut after its end")
  func windowEnd() {
    let audio = signal(length: 6.5, speech: [0.5...2.0, 2.25...4.0, 4.3...6.0])
    let range = recheck.audioRange(of: 2.35...3.85, endsWindow: true, in: audio, sampleRate: sampleRate)
    #expect(Double(range.upperBound) / sampleRate <= 3.85 + 0.001)
    #expect(Double(range.upperBound) / sampleRate >= 3.75 - 0.001)
  }

  @Test("the range stays inside the signal at its edges")
  func edges() {
    let audio = signal(length: 2, speech: [0.0...2.0])
    let range = recheck.audioRange(of: 0.0...2.0, endsWindow: false, in: audio, sampleRate: sampleRate)
    #expect(range.lowerBound >= 0 && range.upperBound <= audio.count && !range.isEmpty)
    // Whisper's times can run past the end of the signal.
    let late = recheck.audioRange(of: 2.5...2.9, endsWindow: false, in: audio, sampleRate: sampleRate)
    #expect(late.lowerBound <= late.upperBound && late.upperBound <= audio.count)
  }

  @Test("the beam's text replaces the greedy text unless it lost or invented most words")
  func acceptance() {
    #expect(recheck.accepts(" He was not an ill disposed young man.", for: " He was not an ill-sposed young man."))
    #expect(!recheck.accepts("", for: " He was not an ill-sposed young man."))
    #expect(!recheck.accepts(" He was", for: " He was not an ill-sposed young man."))
    #expect(!recheck.accepts(String(repeating: " man", count: 20), for: " He was not an ill-sposed young man."))
  }
}
