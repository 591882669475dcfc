import AudioIO
import Foundation
import TestSupport
import Testing
import VoiceNotes

@testable import SpeechRecognition

/// A recording longer than one window is read, cut at pauses and transcribed a window at a time,
/// with the same text and times in the recording as when it is transcribed whole.
@Suite("Long recordings, window by window", .serialized)
struct LongRecordingTests {
  /// The final results of `file` in English with the base model, analysed in windows of at most
  /// `limit` samples.
  private func transcribe(_ file: URL, limit: Int) async throws -> [SpeechTranscriber.Result] {
    let transcriber = SpeechTranscriber(
      locale: Locale(identifier: "en_US"), transcriptionOptions: [], reportingOptions: [],
      attributeOptions: [.audioTimeRange])
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    await analyzer.limitFileWindows(toSamples: limit)
    try await analyzer.start(inputAudioFile: try AudioFile(forReading: file), finishAfterFile: true)
    var results: [SpeechTranscriber.Result] = []
    for try await result in transcriber.results { results.append(result) }
    return results
  }

  @Test("a 46 s passage cut into windows of 12 s reads as it does whole, at the same times")
  func windows() async throws {
    let folder = Fixtures.temporaryFolder("long-recording")
    defer { try? FileManager.default.removeItem(at: folder) }
    let passage = try SpokenPassage.standard(in: folder)
    let whole = try await transcribe(passage.file, limit: RecordingWindows.standardLimit)
    let windowed = try await transcribe(passage.file, limit: 12 * 16_000)
    let text = windowed.map { String($0.text.characters) }.joined(separator: " ")
    let rate = WordErrorRate(reference: passage.reference, hypothesis: text)
    print("windows of 12 s: WER \(rate): \(text)")
    #expect(rate.rate <= 0.03, "WER \(rate)")
    let wholeText = whole.map { String($0.text.characters) }.joined(separator: " ")
    #expect(WordErrorRate(reference: wholeText, hypothesis: text).rate <= 0.03)

    // Every piece of the passage is heard at its own time: the windows' offsets are applied.
    var previousEnd = 0.0
    for result in windowed {
      #expect(result.range.start.seconds >= previousEnd - 0.01, "results go forward in time")
      previousEnd = result.range.end.seconds
    }
    // Each word by its own time range (a result may run across two pieces): a piece's words are
    // those whose middle falls in it or in the half pauses on either side of it.
    let words = windowed.flatMap { result in
      result.text.runs.compactMap { run -> (text: String, middle: Double)? in
        guard let range = run.audioTimeRange else { return nil }
        return (String(result.text[run.range].characters), (range.start.seconds + range.end.seconds) / 2)
      }
    }
    #expect(!words.isEmpty, "no word carries its time range")
    let rate16k = Double(SpokenPassage.sampleRate)
    let margin = 0.75
    for piece in passage.pieces {
      let span =
        (Double(piece.range.lowerBound) / rate16k - margin)...(Double(piece.range.upperBound) / rate16k + margin)
      let heard = words.filter { span.contains($0.middle) }.map(\.text).joined(separator: " ")
      #expect(
        WordErrorRate(reference: piece.reference, hypothesis: heard).rate <= 0.2,
        "\(piece.reference) at \(span): \(heard)")
    }
  }
}
