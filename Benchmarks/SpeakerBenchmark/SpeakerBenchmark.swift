import AudioIO
import Foundation
import SpeechRecognition
import VoiceNotes

/// Runs the speaker benchmark: each conversation diarized and transcribed `runs` times.
struct SpeakerBenchmark {
  let runs: Int

  /// A conversation: its audio file, reference turns and number of speakers.
  struct Conversation {
    var name: String
    var file: URL
    var duration: Double
    var reference: [SpeakerTurn]
    var speakers: Int
  }

  static let rate = 16_000.0
  static let data = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data")

  func run() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "voicenotes-speaker-bench-\(getpid())", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let conversations = try Self.conversations(in: folder)
    let diarizer = try SpeakerDiarizer()
    let transcriber = FileTranscriber(model: .base, locale: Locale(identifier: "en"))
    print("Speaker diarization (segmentation-3.0 + CAM++ on sherpa-onnx), medians of \(runs) runs")
    print("conversation                     audio  speakers  DER     diarize s/min  transcribe s/min  added")
    var totals = (audio: 0.0, diarize: 0.0, transcribe: 0.0, error: 0.0, speech: 0.0)
    for conversation in conversations {
      var diarizeTimes: [Double] = []
      var transcribeTimes: [Double] = []
      var result: SpeakerDiarization?
      for _ in 0..<runs {
        let clock = ContinuousClock()
        var diarization: SpeakerDiarization?
        diarizeTimes.append(
          Self.seconds(
            try await clock.measure { diarization = try await diarizer.diarize(contentsOf: conversation.file) }))
        result = diarization
        transcribeTimes.append(
          Self.seconds(try await clock.measure { _ = try await transcriber.transcribe(conversation.file) }))
      }
      guard let result else { continue }
      let der = DiarizationErrorRate(reference: conversation.reference, hypothesis: result.turns)
      let diarize = Self.median(diarizeTimes)
      let transcribe = Self.median(transcribeTimes)
      totals.audio += conversation.duration
      totals.diarize += diarize
      totals.transcribe += transcribe
      totals.error += der.rate * der.referenceSpeech
      totals.speech += der.referenceSpeech
      print(
        conversation.name.padding(toLength: 32, withPad: " ", startingAt: 0)
          + String(
            format: " %5.1f s  %d of %d    %5.1f%%  %6.2f         %6.2f            %+.0f%%", conversation.duration,
            result.speakerCount, conversation.speakers, der.rate * 100, diarize / conversation.duration * 60,
            transcribe / conversation.duration * 60, diarize / transcribe * 100))
    }
    print(
      String(
        format:
          "all (%.0f s of audio): DER %.1f%%, diarization %.2f s per minute of audio, transcription %.2f s per minute, diarization adds %.0f%% to transcription",
        totals.audio, totals.error / max(totals.speech, 1e-9) * 100, totals.diarize / totals.audio * 60,
        totals.transcribe / totals.audio * 60, totals.diarize / totals.transcribe * 100))
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[(sorted.count - 1) / 2]
  }

  /// The three real-speaker conversations of the tests (Kennedy, the LibriVox reader, the cards
  /// reader), joined the same way: trimmed, levelled, 0.5 to 0.8 s pauses of faint noise.
  static func conversations(in folder: URL) throws -> [Conversation] {
    func librivox(_ id: String) throws -> [Float] {
      try read(data.appendingPathComponent("librivox/sense_and_sensibility_01_austen_64kb-\(id).wav"))
    }
    func cards(_ id: String) throws -> [Float] { try read(data.appendingPathComponent("cards/\(id).wav")) }
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let jfk = try read(checkout.appendingPathComponent(".deps/testdata/jfk.wav"))
    let plans: [(String, [(Int, [Float])])] = [
      ("real, 2 speakers", [(0, try librivox("0870")), (1, jfk), (0, try librivox("0890"))]),
      (
        "real, 2 speakers, short turns",
        [
          (0, try cards("005")), (1, try librivox("0920")), (0, try cards("002")), (1, try librivox("0930")),
          (0, try cards("003")),
        ]
      ),
      (
        "real, 3 speakers",
        [(0, jfk), (1, try cards("005")), (2, try librivox("0870")), (1, try cards("002")), (2, try librivox("0920"))]
      ),
    ]
    return try plans.enumerated().map { number, plan in
      var samples: [Float] = []
      var reference: [SpeakerTurn] = []
      var seed: UInt64 = 12_345
      func pause(_ seconds: Double) {
        for _ in 0..<Int(seconds * rate) {
          seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          samples.append((Float(seed >> 40) / Float(1 << 24) * 2 - 1) * 0.002)
        }
      }
      pause(0.3)
      for (index, clip) in plan.1.enumerated() {
        let levelled = normalised(trimmed(clip.1))
        let offset = Double(samples.count) / rate
        for region in speechRegions(levelled) {
          reference.append(SpeakerTurn(speaker: clip.0, start: offset + region.start, end: offset + region.end))
        }
        samples += levelled
        pause(0.5 + 0.1 * Double(index % 4))
      }
      let file = folder.appendingPathComponent("conversation-\(number).wav")
      try WAVWriter.write(AudioBuffer(format: .speechAnalysis, samples: samples), to: file)
      return Conversation(
        name: plan.0, file: file, duration: Double(samples.count) / rate, reference: reference,
        speakers: Set(plan.1.map(\.0)).count)
    }
  }

  static func read(_ url: URL) throws -> [Float] {
    try AudioFile(forReading: url).read(format: .speechAnalysis).samples
  }

  static func energies(_ samples: [Float]) -> [Float] {
    let frame = Int(0.02 * rate)
    return stride(from: 0, to: samples.count, by: frame).map { start in
      let piece = samples[start..<min(samples.count, start + frame)]
      return (piece.reduce(0) { $0 + $1 * $1 } / Float(max(piece.count, 1))).squareRoot()
    }
  }

  static func level(_ energies: [Float]) -> Float {
    let sorted = energies.sorted()
    return 0.1 * (sorted.isEmpty ? 0 : sorted[Int(Double(sorted.count - 1) * 0.95)])
  }

  static func trimmed(_ samples: [Float]) -> [Float] {
    let values = energies(samples)
    let threshold = level(values)
    guard let first = values.firstIndex(where: { $0 > threshold }),
      let last = values.lastIndex(where: { $0 > threshold })
    else { return samples }
    let frame = Int(0.02 * rate)
    return Array(samples[(first * frame)..<min(samples.count, (last + 1) * frame)])
  }

  static func normalised(_ samples: [Float]) -> [Float] {
    let loud = level(energies(samples)) * 10
    return loud > 0 ? samples.map { $0 * (0.1 / loud) } : samples
  }

  static func speechRegions(_ samples: [Float]) -> [(start: Double, end: Double)] {
    let values = energies(samples)
    let threshold = level(values)
    var regions: [(start: Double, end: Double)] = []
    for (index, energy) in values.enumerated() where energy > threshold {
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
