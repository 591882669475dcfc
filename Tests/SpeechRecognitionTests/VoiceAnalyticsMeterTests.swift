import AudioIO
import Foundation
import TestSupport
import Testing

@testable import SpeechRecognition

/// The voice measures behind SFVoiceAnalytics, on tones whose pitch is known.
@Suite("Voice analytics")
struct VoiceAnalyticsMeterTests {
  /// A voice-like tone at `frequency` (a fundamental and four weaker harmonics) for `seconds`, at 16 kHz.
  private func tone(_ frequency: Double, seconds: Double, level: Float = 0.3) -> [Float] {
    (0..<Int(seconds * 16_000)).map { index in
      let time = Double(index) / 16_000
      let wave = (1...5).reduce(0.0) { sum, harmonic in
        sum + sin(2 * .pi * frequency * Double(harmonic) * time) / Double(harmonic)
      }
      return level * Float(wave) / 2
    }
  }

  @Test("a steady tone is voiced at its period with no jitter or shimmer; silence is unvoiced")
  func steadyTone() throws {
    let meter = VoiceAnalyticsMeter()
    let samples = tone(150, seconds: 1) + [Float](repeating: 0, count: 8_000)
    // Odd chunk sizes, as a tap delivers them.
    for start in stride(from: 0, to: samples.count, by: 1_601) {
      meter.append(Array(samples[start..<min(start + 1_601, samples.count)]))
    }
    let frames = meter.frames
    #expect(abs(frames.count - 147) <= 1, "a frame every 10 ms of 1.5 s, but the last window's length")
    let inTone = frames[0..<95]
    #expect(inTone.allSatisfy { $0.voicing > 0.95 }, "\(inTone.map(\.voicing).min() ?? 0)")
    #expect(
      inTone.allSatisfy { abs(($0.period ?? 0) * 150 - 1) < 0.01 }, "\(inTone.compactMap(\.period).map { 1 / $0 })")
    #expect(frames[105...].allSatisfy { $0.voicing == 0 && $0.period == nil }, "silence")

    let analytics = try #require(meter.analytics(from: 0, to: 0.9))
    #expect(analytics.voicing.frameDuration == 0.01 && analytics.pitch.acousticFeatureValuePerFrame.count == 90)
    #expect(analytics.jitter.acousticFeatureValuePerFrame.allSatisfy { $0.doubleValue < 0.5 })
    #expect(analytics.shimmer.acousticFeatureValuePerFrame.allSatisfy { $0.doubleValue < 0.2 })
    #expect(analytics.pitch.acousticFeatureValuePerFrame.allSatisfy { abs($0.doubleValue) < 0.01 })
    #expect(meter.analytics(from: 2, to: 3) == nil, "no frame there")
  }

  @Test("a voice that rises a fourth reads as higher pitch; a wobbling period as jitter")
  func pitchAndJitter() throws {
    let meter = VoiceAnalyticsMeter()
    meter.append(tone(150, seconds: 0.5) + tone(200, seconds: 0.5))
    let pitch = try #require(meter.analytics(from: 0, to: 1)).pitch.acousticFeatureValuePerFrame.map(\.doubleValue)
    let low = pitch[5..<40].reduce(0, +) / 35
    let high = pitch[55..<90].reduce(0, +) / 35
    #expect(abs((high - low) - log(200.0 / 150)) < 0.02, "low \(low), high \(high)")

    let wobbling = VoiceAnalyticsMeter()
    for index in 0..<20 { wobbling.append(tone(index.isMultiple(of: 2) ? 140 : 160, seconds: 0.05)) }
    let jitter = try #require(wobbling.analytics(from: 0, to: 1)).jitter.acousticFeatureValuePerFrame.map(\.doubleValue)
    #expect(jitter.max() ?? 0 > 5, "periods 13% apart from one stretch to the next: \(jitter)")
  }

  @Test("real speech: Kennedy's raised orator's voice, at the pitch an independent estimate gives")
  func realSpeech() throws {
    let meter = VoiceAnalyticsMeter()
    meter.append(try AudioFile(forReading: Fixtures.jfk).read())
    let periods = meter.frames.compactMap(\.period).sorted()
    let voiced = Double(periods.count) / Double(meter.frames.count)
    #expect((0.3...0.8).contains(voiced), "\(voiced) of the frames voiced")
    // YIN (cumulative mean normalized difference, threshold 0.15, the same 40 ms frames) puts
    // this recording's median pitch at 254 Hz, high for a man: he is addressing a crowd.
    let median = 1 / periods[periods.count / 2]
    #expect(abs(median / 254 - 1) < 0.15, "median pitch \(median) Hz")
  }
}
