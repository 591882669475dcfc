import AudioIO
import Foundation
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

  @Test("Core Media's C functions, as sample code calls them")
  func functions() {
    let start = CMTimeMake(value: 3, timescale: 2)
    let duration = CMTimeMakeWithSeconds(0.25, preferredTimescale: 600)
    #expect(CMTimeGetSeconds(start) == 1.5)
    #expect(CMTimeGetSeconds(CMTimeAdd(start, duration)) == 1.75)
    #expect(CMTimeGetSeconds(CMTimeSubtract(start, duration)) == 1.25)
    #expect(CMTimeCompare(start, duration) == 1 && CMTimeCompare(duration, start) == -1)
    #expect(CMTimeCompare(start, CMTimeMake(value: 900, timescale: 600)) == 0)
    let range = CMTimeRangeMake(start: start, duration: duration)
    #expect(CMTimeGetSeconds(CMTimeRangeGetEnd(range)) == 1.75)
    // Sums are exact rationals: a third plus a sixth is a half, not a rounded 0.5.
    let sum = CMTimeMake(value: 1, timescale: 3) + CMTimeMake(value: 1, timescale: 6)
    #expect(sum == CMTimeMake(value: 1, timescale: 2) && sum.timescale == 6)
  }

  @Test("special times: invalid, indefinite and the infinities, in Core Media's order")
  func specialTimes() {
    #expect(!CMTime.invalid.isValid && CMTime.zero.isValid && CMTime.zero.isNumeric)
    #expect(CMTime.indefinite.isValid && CMTime.indefinite.isIndefinite && !CMTime.indefinite.isNumeric)
    #expect(!CMTime.positiveInfinity.isNumeric && CMTime.positiveInfinity.seconds == .infinity)
    #expect(CMTime.negativeInfinity.seconds == -.infinity && CMTime.invalid.seconds.isNaN)
    #expect(CMTimeGetSeconds(.indefinite).isNaN)
    // A timescale of zero is an invalid time, not a crash; so is NaN.
    #expect(!CMTime(value: 1, timescale: 0).isValid)
    #expect(!CMTimeMakeWithSeconds(.nan, preferredTimescale: 600).isValid)
    #expect(CMTimeMakeWithSeconds(.infinity, preferredTimescale: 600) == .positiveInfinity)
    let ordered: [CMTime] = [
      .negativeInfinity, CMTimeMake(value: -5, timescale: 1), .zero, .indefinite, .positiveInfinity, .invalid,
    ]
    #expect(ordered.shuffled().sorted() == ordered)
    #expect(CMTime.invalid == CMTime(value: 7, timescale: 0))
    // Arithmetic follows the special times.
    #expect(!(CMTime.invalid + .zero).isValid)
    #expect((CMTime.positiveInfinity + CMTimeMake(value: 1, timescale: 1)) == .positiveInfinity)
    #expect(!(CMTime.positiveInfinity + .negativeInfinity).isValid)
    #expect((CMTime.indefinite - CMTimeMake(value: 1, timescale: 1)).isIndefinite)
  }

  @Test("ranges: zero, invalid, empty, containment, union and intersection")
  func rangeSets() throws {
    func seconds(_ start: Double, _ end: Double) -> CMTimeRange {
      CMTimeRange(
        start: CMTime(seconds: start, preferredTimescale: 1_000), end: CMTime(seconds: end, preferredTimescale: 1_000))
    }
    #expect(CMTimeRange.zero.isValid && CMTimeRange.zero.isEmpty && CMTimeRange() == .zero)
    #expect(!CMTimeRange.invalid.isValid && !CMTimeRange.invalid.isEmpty)
    #expect(!seconds(2, 1).isValid, "a negative duration is not a valid range")
    #expect(seconds(1, 4).containsTimeRange(seconds(2, 3)) && seconds(1, 4).containsTimeRange(seconds(1, 4)))
    #expect(!seconds(1, 4).containsTimeRange(seconds(3, 5)))
    #expect(seconds(1, 2).union(seconds(3, 4)) == seconds(1, 4))
    #expect(seconds(1, 3).intersection(seconds(2, 4)) == seconds(2, 3))
    #expect(seconds(1, 2).intersection(seconds(3, 4)).isEmpty)
    #expect(!seconds(1, 2).union(.invalid).isValid)
  }

  @Test("times and ranges stored before special times existed still read, and special times round-trip")
  func coding() throws {
    let old = try JSONDecoder().decode(CMTime.self, from: Data(#"{"value":3,"timescale":2}"#.utf8))
    #expect(old == CMTimeMake(value: 3, timescale: 2) && old.isNumeric)
    let plain = try JSONEncoder().encode(CMTimeMake(value: 3, timescale: 2))
    #expect(String(decoding: plain, as: UTF8.self).contains("flags") == false)
    for time in [CMTime.indefinite, .positiveInfinity, .negativeInfinity, .invalid] {
      let decoded = try JSONDecoder().decode(CMTime.self, from: try JSONEncoder().encode(time))
      #expect(decoded == time && decoded.flags == time.flags)
    }
  }
}
