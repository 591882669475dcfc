import AudioIO
import Foundation
import SpeechRecognition
import TestSupport

/// A conversation made at test time by joining recordings of known speakers, with short pauses
/// between them, so that who speaks when is known: the reference turns are each recording's
/// speech (found by its loudness), labelled with the recording's speaker.
struct SpeakerConversation: Sendable {
  /// A recording and who speaks in it.
  struct Clip: Sendable {
    var speaker: Int
    var samples: [Float]
  }

  let name: String
  let samples: [Float]
  let reference: [SpeakerTurn]
  let speakerCount: Int

  var duration: Double { Double(samples.count) / SpeakerConversation.rate }

  static let rate = 16_000.0

  /// Joins `clips` with pauses of 0.5 to 0.8 s of faint noise (so no stretch is digital
  /// silence), each clip scaled to the same loudness, like one microphone in one room.
  init(_ name: String, _ clips: [Clip]) {
    var samples: [Float] = []
    var reference: [SpeakerTurn] = []
    var noise = SplitMix(seed: UInt64(clips.count * 7919 + name.count))
    func pause(_ seconds: Double) {
      for _ in 0..<Int(seconds * Self.rate) { samples.append(Float(noise.nextSigned()) * 0.002) }
    }
    pause(0.3)
    for (index, clip) in clips.enumerated() {
      let trimmed = Self.trimmed(clip.samples)
      let scaled = Self.normalised(trimmed)
      let offset = Double(samples.count) / Self.rate
      for region in Self.speechRegions(scaled) {
        reference.append(SpeakerTurn(speaker: clip.speaker, start: offset + region.start, end: offset + region.end))
      }
      samples += scaled
      pause(0.5 + 0.1 * Double(index % 4))
    }
    self.name = name
    self.samples = samples
    self.reference = reference
    speakerCount = Set(clips.map(\.speaker)).count
  }

  /// A 16 kHz mono recording from a file.
  static func read(_ url: URL) throws -> [Float] {
    try AudioFile(forReading: url).read(format: .speechAnalysis).samples
  }

  /// espeak-ng speaking `text` with `arguments` (voice, pitch, speed), as 16 kHz mono samples.
  static func speak(_ text: String, _ arguments: [String]) throws -> [Float] {
    let folder = Fixtures.temporaryFolder("espeak")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("voice.wav")
    try Fixtures.run(["espeak-ng"] + arguments + ["-w", file.path, text])
    return try read(file)
  }

  /// RMS over 20 ms frames.
  static func frameEnergies(_ samples: [Float]) -> [Float] {
    let frame = Int(0.02 * rate)
    return stride(from: 0, to: samples.count, by: frame).map { start in
      let piece = samples[start..<min(samples.count, start + frame)]
      return (piece.reduce(0) { $0 + $1 * $1 } / Float(max(piece.count, 1))).squareRoot()
    }
  }

  /// The loudness above which a frame counts as speech: a tenth of the loud frames' level.
  static func speechLevel(_ energies: [Float]) -> Float {
    let sorted = energies.sorted()
    return 0.1 * (sorted.isEmpty ? 0 : sorted[Int(Double(sorted.count - 1) * 0.95)])
  }

  /// The clip without its leading and trailing quiet frames.
  static func trimmed(_ samples: [Float]) -> [Float] {
    let energies = frameEnergies(samples)
    let level = speechLevel(energies)
    guard let first = energies.firstIndex(where: { $0 > level }), let last = energies.lastIndex(where: { $0 > level })
    else { return samples }
    let frame = Int(0.02 * rate)
    return Array(samples[(first * frame)..<min(samples.count, (last + 1) * frame)])
  }

  /// The clip scaled so its loud frames sit at the same level as every other clip's.
  static func normalised(_ samples: [Float]) -> [Float] {
    let level = speechLevel(frameEnergies(samples)) * 10
    guard level > 0 else { return samples }
    return samples.map { $0 * (0.1 / level) }
  }

  /// Stretches of speech in a clip, in seconds: loud frames, with gaps under 0.3 s bridged.
  static func speechRegions(_ samples: [Float]) -> [(start: Double, end: Double)] {
    let energies = frameEnergies(samples)
    let level = speechLevel(energies)
    var regions: [(start: Double, end: Double)] = []
    for (index, energy) in energies.enumerated() where energy > level {
      let start = Double(index) * 0.02
      let end = min(Double(samples.count) / rate, start + 0.02)
      if let last = regions.last, start - last.end < 0.3 {
        regions[regions.count - 1].end = end
      } else {
        regions.append((start, end))
      }
    }
    return regions
  }
}

/// A small deterministic random generator, for the pauses' noise.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  /// A value in -1...1.
  mutating func nextSigned() -> Double { Double(next() >> 11) / Double(1 << 52) - 1 }
}
