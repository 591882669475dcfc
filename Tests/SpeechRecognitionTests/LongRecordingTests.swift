import AudioIO
import Foundation
import Synchronization
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
  private func transcribe(
    _ file: URL, limit: Int, backend: CountingBackend = CountingBackend(), cancelBefore: CMTime? = nil
  ) async throws -> [SpeechTranscriber.Result] {
    let transcriber = SpeechTranscriber(
      model: .default, locale: Locale(identifier: "en_US"), attributeOptions: [.audioTimeRange], backend: backend)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    await analyzer.limitFileWindows(toSamples: limit)
    if let cancelBefore { await analyzer.cancelAnalysis(before: cancelBefore) }
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
    let decoded = CountingBackend()
    let windowed = try await transcribe(passage.file, limit: 12 * 16_000, backend: decoded)
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

    // cancelAnalysis(before:) given before the file starts: the windows that end by then are not
    // decoded, and what follows reads as it did.
    let cut = CMTime(seconds: 24, preferredTimescale: 1000)
    let skipping = CountingBackend()
    let later = try await transcribe(passage.file, limit: 12 * 16_000, backend: skipping, cancelBefore: cut)
    let windows = decoded.windows.withLock { $0 }
    let skipped = skipping.windows.withLock { $0 }
    print("windows decoded in full: \(windows); after cancelAnalysis(before: 24 s): \(skipped)")
    #expect(skipped.count < windows.count, "\(skipped) of \(windows)")
    let samples = (decoded: windows.reduce(0, +), skipping: skipped.reduce(0, +))
    #expect(samples.skipping <= samples.decoded - 12 * 16_000, "at least one window of speech left out: \(samples)")
    #expect(later.allSatisfy { $0.range.end > cut })
    let laterText = later.map { String($0.text.characters) }.joined(separator: " ")
    let sameText = windowed.filter { $0.range.end > cut }.map { String($0.text.characters) }.joined(separator: " ")
    #expect(!laterText.isEmpty)
    #expect(WordErrorRate(reference: sameText, hypothesis: laterText).rate <= 0.03, "\(laterText) | \(sameText)")
  }
}

/// The local engine, keeping the length in samples of each window it is given.
private final class CountingBackend: TranscriptionBackend {
  let inner = WhisperBackend()
  let windows = Mutex<[Int]>([])

  var description: String { inner.description }
  func checkReady(locale: Locale?) throws(SpeechTranscriptionError) { try inner.checkReady(locale: locale) }
  func prepare() throws(SpeechTranscriptionError) { try inner.prepare() }
  func assetStatus(locale: Locale?) async throws(SpeechTranscriptionError) -> AssetInventory.Status {
    try await inner.assetStatus(locale: locale)
  }
  func transcribe(
    _ audio: AudioBuffer, request: TranscriptionRequest, shouldAbort: @escaping @Sendable () -> Bool,
    onSegment: @escaping @Sendable (TranscribedSegment) -> Void
  ) async throws(SpeechTranscriptionError) -> String? {
    windows.withLock { $0.append(audio.frameLength) }
    return try await inner.transcribe(audio, request: request, shouldAbort: shouldAbort, onSegment: onSegment)
  }
}
