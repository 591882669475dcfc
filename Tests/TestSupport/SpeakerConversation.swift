import AudioIO
import Foundation
import SpeechRecognition

/// A conversation made at test time by joining recordings of known speakers, with short pauses
/// between them, so that who speaks when is known: the reference turns are each recording's
/// speech (found by its loudness), labelled with the recording's speaker.
public struct SpeakerConversation: Sendable {
  /// A recording and who speaks in it.
  public struct Clip: Sendable {
    /// The speaker, from 0.
    public var speaker: Int
    /// The recording, 16 kHz mono.
    public var samples: [Float]

    /// A recording of `speaker`.
    public init(speaker: Int, samples: [Float]) {
      self.speaker = speaker
      self.samples = samples
    }
  }

  /// What the conversation is, for reports.
  public let name: String
  /// The joined recording, 16 kHz mono.
  public let samples: [Float]
  /// Who speaks when.
  public let reference: [SpeakerTurn]
  /// How many people speak.
  public let speakerCount: Int

  /// The length, in seconds.
  public var duration: Double { Double(samples.count) / SpeakerConversation.rate }

  /// The sample rate of every clip and of the result.
  public static let rate = 16_000.0

  /// Joins `clips` with pauses of 0.5 to 0.8 s of faint noise (so no stretch is digital
  /// silence), each clip scaled to the same loudness, like one microphone in one room.
  public init(_ name: String, _ clips: [Clip]) {
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
  public static func read(_ url: URL) throws -> [Float] {
    try AudioFile(forReading: url).read(format: .speechAnalysis).samples
  }

  /// espeak-ng speaking `text` with `arguments` (voice, pitch, speed), as 16 kHz mono samples.
  public static func speak(_ text: String, _ arguments: [String]) throws -> [Float] {
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

  /// Two real people: the LibriVox reader, Kennedy, the reader again.
  public static func realTwo() throws -> SpeakerConversation {
    SpeakerConversation(
      "real, 2 speakers (LibriVox reader, Kennedy)",
      [
        .init(speaker: 0, samples: try RealSpeakers.librivox("0870")),
        .init(speaker: 1, samples: try RealSpeakers.jfk()),
        .init(speaker: 0, samples: try RealSpeakers.librivox("0890")),
      ])
  }

  /// Two real people in short turns: the cards reader and the LibriVox reader, alternating.
  public static func realTwoShortTurns() throws -> SpeakerConversation {
    SpeakerConversation(
      "real, 2 speakers, short turns (cards reader, LibriVox reader)",
      [
        .init(speaker: 0, samples: try RealSpeakers.cards("005")),
        .init(speaker: 1, samples: try RealSpeakers.librivox("0920")),
        .init(speaker: 0, samples: try RealSpeakers.cards("002")),
        .init(speaker: 1, samples: try RealSpeakers.librivox("0930")),
        .init(speaker: 0, samples: try RealSpeakers.cards("003")),
      ])
  }

  /// Three real people: Kennedy, the cards reader, the LibriVox reader.
  public static func realThree() throws -> SpeakerConversation {
    SpeakerConversation(
      "real, 3 speakers (Kennedy, cards reader, LibriVox reader)",
      [
        .init(speaker: 0, samples: try RealSpeakers.jfk()),
        .init(speaker: 1, samples: try RealSpeakers.cards("005")),
        .init(speaker: 2, samples: try RealSpeakers.librivox("0870")),
        .init(speaker: 1, samples: try RealSpeakers.cards("002")),
        .init(speaker: 2, samples: try RealSpeakers.librivox("0920")),
      ])
  }
}
