import AudioIO
import Foundation
import SpeechRecognition
import TestSupport
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

  func run() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "voicenotes-speaker-bench-\(getpid())", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let conversations = try Self.conversations(in: folder)
    let diarizer = try SpeakerDiarizer()
    let transcriber = FileTranscriber(model: .base, locale: Locale(identifier: "en"))
    print("Speaker diarization (segmentation-3.0 + CAM++ on sherpa-onnx), medians of \(runs) runs")
    print(
      "conversation" + String(repeating: " ", count: 51)
        + "audio  speakers  DER     diarize s/min  transcribe s/min  added")
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
        conversation.name.padding(toLength: 62, withPad: " ", startingAt: 0)
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
  /// reader), each written to a WAV file in `folder`.
  static func conversations(in folder: URL) throws -> [Conversation] {
    let joined = [
      try SpeakerConversation.realTwo(), try SpeakerConversation.realTwoShortTurns(),
      try SpeakerConversation.realThree(),
    ]
    return try joined.enumerated().map { number, conversation in
      let file = folder.appendingPathComponent("conversation-\(number).wav")
      try WAVWriter.write(AudioBuffer(format: .speechAnalysis, samples: conversation.samples), to: file)
      return Conversation(
        name: conversation.name, file: file, duration: conversation.duration, reference: conversation.reference,
        speakers: conversation.speakerCount)
    }
  }
}
