import Testing

@testable import SpeechRecognition

/// Joining speech regions and mapping times back: the logic around voice-activity detection.
@Suite("Speech timeline")
struct SpeechTimelineTests {
  @Test("regions are merged, joined with gaps after a lead-in, and times map back")
  func joinAndMap() {
    let timeline = SpeechTimeline(
      regions: [300..<400, 100..<200, 150..<250], sampleCount: 1000, sampleRate: 100, gapSeconds: 0.1,
      leadInSeconds: 0.2)
    #expect(timeline.pieces.map(\.original) == [100..<250, 300..<400])
    #expect(timeline.pieces.map(\.joinedStart) == [20, 20 + 150 + 10])
    let samples = (0..<1000).map(Float.init)
    let joined = timeline.join(samples)
    #expect(joined.count == 20 + 150 + 10 + 100)
    #expect(joined[20] == 100 && joined[20 + 150 + 10] == 300)
    #expect(timeline.originalTime(0.2) == 1.0)
    #expect(timeline.originalTime(1.8) == 3.0)
    #expect(timeline.originalTime(2.0) == 3.2)
    // The lead-in maps to the start of the first region; a gap, to the end of the region before it.
    #expect(timeline.originalTime(0.05) == 1.0)
    #expect(timeline.originalTime(1.75) == 2.5)
  }

  @Test("a timeline with no speech has no pieces")
  func noSpeech() {
    let timeline = SpeechTimeline(regions: [], sampleCount: 1000, sampleRate: 100)
    #expect(timeline.pieces.isEmpty)
    #expect(timeline.join([Float](repeating: 1, count: 1000)).allSatisfy { $0 == 0 })
  }
}
