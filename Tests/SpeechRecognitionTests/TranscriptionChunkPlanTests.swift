import Testing

@testable import SpeechRecognition

/// Cutting a recording too long for one server request at its pauses.
@Suite("Transcription chunk planning")
struct TranscriptionChunkPlanTests {
  /// Windows of 10 samples; `speech` marks windows with speech.
  func plan(_ speech: [Bool], limit: Int) -> [Range<Int>] {
    TranscriptionChunkPlan(
      sampleCount: speech.count * 10, limit: limit, speechProbabilities: speech.map { $0 ? 0.9 : 0.1 },
      windowSize: 10
    ).pieces
  }

  @Test("a recording within the limit is one piece")
  func fits() {
    #expect(plan(Array(repeating: true, count: 10), limit: 100) == [0..<100])
  }

  @Test("cuts fall in the middle of the longest pause in the second half of what fits")
  func cutsAtPauses() {
    // Speech 0-59, a pause of windows 6-8, speech 9-15, pause 16, speech 17-24.
    let speech = (0..<25).map { !(6...8).contains($0) && $0 != 16 }
    let pieces = plan(speech, limit: 120)
    #expect(pieces == [0..<70, 70..<160, 160..<250])
    #expect(pieces.allSatisfy { $0.count <= 120 })
  }

  @Test("of a long pause only the padding either side of the cut is kept")
  func longPauseLeftOut() {
    // Speech in windows 0-4, a pause of 20 windows, speech in 25-34; a limit of 30 windows.
    let speech = (0..<35).map { $0 < 5 || $0 >= 25 }
    let pieces = TranscriptionChunkPlan(
      sampleCount: 350, limit: 300, speechProbabilities: speech.map { $0 ? 0.9 : 0.1 }, windowSize: 10, padding: 3
    ).pieces
    // The pause in the second half of the first 300 samples is windows 15-24 (the run seen
    // from there): the piece ends 3 windows after the run starts, the next starts 3 before speech.
    #expect(pieces == [0..<180, 220..<350])
  }

  @Test("with no pause the cut is at the quietest window, and no piece exceeds the limit")
  func noPause() {
    var probabilities = [Float](repeating: 0.9, count: 30)
    probabilities[8] = 0.6
    let pieces = TranscriptionChunkPlan(
      sampleCount: 300, limit: 100, speechProbabilities: probabilities, windowSize: 10
    ).pieces
    #expect(pieces.first == 0..<80)
    #expect(pieces.allSatisfy { $0.count <= 100 })
    #expect(pieces.last?.upperBound == 300)
  }

  @Test("pieces without any speech are not sent")
  func silentPiecesDropped() {
    // Speech, then a long silence, then speech.
    let speech = (0..<40).map { $0 < 5 || $0 >= 35 }
    let pieces = plan(speech, limit: 100)
    #expect(pieces.first?.lowerBound == 0)
    #expect(pieces.last?.upperBound == 400)
    #expect(pieces.allSatisfy { $0.count <= 100 })
    #expect(pieces.count < 4)
  }
}
