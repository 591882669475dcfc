import SpeechRecognition
import Testing

@testable import VoiceNotes

/// DiarizationErrorRate on hand-made turns: each part of the error, the collar and the mapping.
@Suite("DiarizationErrorRate")
struct DiarizationErrorRateTests {
  func turn(_ speaker: Int, _ start: Double, _ end: Double) -> SpeakerTurn {
    SpeakerTurn(speaker: speaker, start: start, end: end)
  }

  @Test("a perfect diarization under other labels scores 0")
  func perfect() {
    let reference = [turn(0, 0, 5), turn(1, 5.5, 9), turn(2, 9.5, 12), turn(0, 12.5, 15)]
    let hypothesis = [turn(7, 0, 5), turn(3, 5.5, 9), turn(5, 9.5, 12), turn(7, 12.5, 15)]
    let der = DiarizationErrorRate(reference: reference, hypothesis: hypothesis, collar: 0)
    #expect(der.rate < 1e-9)
    #expect(der.mapping == [7: 0, 3: 1, 5: 2])
    #expect(abs(der.referenceSpeech - 13.5) < 0.02)
  }

  @Test("one label for two speakers confuses the shorter one")
  func confusion() {
    let reference = [turn(0, 0, 10), turn(1, 10, 14)]
    let der = DiarizationErrorRate(reference: reference, hypothesis: [turn(0, 0, 14)], collar: 0)
    #expect(abs(der.confusion - 4) < 0.02)
    #expect(der.missed < 0.02 && der.falseAlarm < 0.02)
    #expect(abs(der.rate - 4.0 / 14.0) < 0.002)
  }

  @Test("missed speech and false alarms are counted apart")
  func missedAndFalseAlarm() {
    let reference = [turn(0, 0, 10)]
    let hypothesis = [turn(0, 2, 10), turn(0, 11, 14)]
    let der = DiarizationErrorRate(reference: reference, hypothesis: hypothesis, collar: 0)
    #expect(abs(der.missed - 2) < 0.02)
    #expect(abs(der.falseAlarm - 3) < 0.02)
    #expect(der.confusion < 0.02)
    #expect(abs(der.rate - 0.5) < 0.003)
    #expect(DiarizationErrorRate(reference: reference, hypothesis: [], collar: 0).rate == 1)
  }

  @Test("boundaries within the collar are not scored")
  func collar() {
    let reference = [turn(0, 1, 6), turn(1, 6, 11)]
    let hypothesis = [turn(0, 1.2, 6.2), turn(1, 6.2, 10.8)]
    #expect(DiarizationErrorRate(reference: reference, hypothesis: hypothesis).rate < 1e-9)
    let strict = DiarizationErrorRate(reference: reference, hypothesis: hypothesis, collar: 0)
    #expect(abs(strict.missed - 0.4) < 0.02)
    #expect(abs(strict.confusion - 0.2) < 0.02)
  }

  @Test("the mapping is the best one-to-one, not the greedy one")
  func optimalMapping() {
    // Greedy would give hypothesis 0 to reference 0 (6 s) and leave hypothesis 1 with nothing;
    // the best mapping gives hypothesis 0 to reference 1 and hypothesis 1 to reference 0.
    let reference = [turn(0, 0, 6), turn(1, 6, 11)]
    let hypothesis = [turn(0, 0, 1), turn(0, 6, 11), turn(1, 1, 6)]
    let der = DiarizationErrorRate(reference: reference, hypothesis: hypothesis, collar: 0)
    #expect(der.mapping == [0: 1, 1: 0])
    #expect(abs(der.confusion - 1) < 0.02)
    #expect(DiarizationErrorRate.bestMapping([[6, 5], [5, 0]]).total == 10)
  }

  @Test("overlapping speech counts once per speaker")
  func overlap() {
    let reference = [turn(0, 0, 6), turn(1, 4, 10)]
    let der = DiarizationErrorRate(reference: reference, hypothesis: [turn(0, 0, 6)], collar: 0)
    #expect(abs(der.referenceSpeech - 12) < 0.02)
    #expect(abs(der.missed - 6) < 0.02)
  }
}
