import AudioIO
import Testing

@Suite("Media time")
struct CMTimeTests {
  @Test("times compare as rationals across timescales")
  func comparison() {
    #expect(CMTime(value: 1, timescale: 2) == CMTime(value: 500, timescale: 1000))
    #expect(CMTime(value: 1, timescale: 3) < CMTime(seconds: 0.34, preferredTimescale: 100))
    #expect(
      (CMTime(seconds: 1.25, preferredTimescale: 100) + CMTime(seconds: 0.5, preferredTimescale: 10)).seconds == 1.75)
  }

  @Test("a range knows its end and what it contains")
  func range() {
    let range = CMTimeRange(
      start: CMTime(seconds: 2, preferredTimescale: 1000), end: CMTime(seconds: 3.5, preferredTimescale: 1000))
    #expect(range.duration.seconds == 1.5)
    #expect(range.containsTime(CMTime(seconds: 2, preferredTimescale: 1)))
    #expect(!range.containsTime(CMTime(seconds: 3.5, preferredTimescale: 10)))
  }
}
