import AudioIO
import Foundation
import SpeechRecognition
import TestSupport
import Testing
import VoiceNotes

/// The Speech-framework shape: results stream, ranges, word timestamps and errors.
@Suite("SpeechAnalyzer and SpeechTranscriber", .serialized)
struct SpeechAnalyzerTests {
  @Test("results arrive final, in order, with word time ranges inside the audio")
  func timestamps() async throws {
    let file = try AudioFile(forReading: Fixtures.jfk)
    let transcriber = SpeechTranscriber(
      locale: Locale(identifier: "en_US"), preset: .timeIndexedTranscriptionWithAlternatives)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    try await analyzer.start(inputAudioFile: file, finishAfterFile: true)

    var results: [SpeechTranscriber.Result] = []
    for try await result in transcriber.results { results.append(result) }
    try #require(!results.isEmpty)

    var previousEnd = 0.0
    var words = 0
    for result in results {
      #expect(result.isFinal)
      #expect(result.range.start.seconds >= previousEnd - 0.01, "results overlap")
      #expect(result.range.end.seconds <= file.duration + 0.01)
      previousEnd = result.range.end.seconds
      var previousWordStart = result.range.start.seconds - 0.5
      for run in result.text.runs {
        guard let range = run.audioTimeRange else { continue }
        words += 1
        #expect(range.start.seconds >= previousWordStart, "word starts go forward")
        #expect(range.start.seconds >= 0 && range.end.seconds <= file.duration + 0.01)
        #expect(range.end >= range.start)
        previousWordStart = range.start.seconds
      }
    }
    #expect(words == WordErrorRate.normalizedWords(Fixtures.jfkText).count)
    // "country" is the last word, said in the final second of the clip.
    let last = try #require(results.last?.text.runs.compactMap(\.audioTimeRange).last)
    #expect(last.start.seconds > 9 && last.start.seconds < 11)
    // The moment "country" is said finds its text, as playback highlighting looks it up.
    let text = try #require(results.last?.text)
    let playing = CMTimeRange(
      start: last.start + CMTime(seconds: last.duration.seconds / 2, preferredTimescale: 1_000), duration: .zero)
    let found = try #require(text.rangeOfAudioTimeRangeAttributes(intersecting: playing))
    #expect(String(text[found].characters).lowercased().contains("country"))
  }

  @Test("speech after a long silence keeps its real time, not the time after silence removal")
  func timestampsAfterSilence() async throws {
    let folder = Fixtures.temporaryFolder("silence")
    defer { try? FileManager.default.removeItem(at: folder) }
    let padded = folder.appendingPathComponent("padded.wav")
    // Eight seconds of silence, then the speech.
    try Fixtures.encode(Fixtures.jfk, to: padded, ["-af", "adelay=8000"])
    let transcript = try await FileTranscriber(model: .base, locale: Locale(identifier: "en")).transcribe(padded)
    let first = try #require(transcript.segments.first?.words.first)
    #expect(first.start > 7.8 && first.start < 9, "first word at \(first.start) s")
    let last = try #require(transcript.segments.last?.words.last)
    #expect(last.end <= transcript.duration + 0.01 && last.start > 17, "last word at \(last.start) s")
  }

  @Test("a recording without speech throws emptyResult")
  func silenceIsEmpty() async throws {
    let folder = Fixtures.temporaryFolder("empty")
    defer { try? FileManager.default.removeItem(at: folder) }
    let silence = folder.appendingPathComponent("silence.wav")
    try WAVWriter.write(
      AudioBuffer(format: .speechAnalysis, samples: [Float](repeating: 0, count: 48_000)), to: silence)
    await #expect(throws: SpeechTranscriptionError.emptyResult) {
      try await FileTranscriber(model: .base, locale: Locale(identifier: "en")).transcribe(silence)
    }
  }

  @Test("an English-only model refuses German, and a missing model says what is missing (the app adds its command)")
  func unsupportedLocaleAndMissingModel() async throws {
    let german = SpeechTranscriber(model: .tinyEnglish, locale: Locale(identifier: "de_DE"))
    let analyzer = SpeechAnalyzer(modules: [german])
    await #expect(throws: SpeechTranscriptionError.unsupportedLocale(Locale(identifier: "de_DE"), model: "tiny.en")) {
      try await analyzer.start(inputAudioFile: try AudioFile(forReading: Fixtures.jfk), finishAfterFile: true)
    }
    // The module's results end with the same error rather than hanging.
    await #expect(throws: SpeechTranscriptionError.self) { for try await _ in german.results {} }

    let empty = Fixtures.temporaryFolder("no-models")
    defer { try? FileManager.default.removeItem(at: empty) }
    let missing = SpeechTranscriber(
      model: .base, locale: Locale(identifier: "en"), modelDirectory: ModelDirectory(url: empty))
    let error = await #expect(throws: SpeechTranscriptionError.modelNotInstalled(model: "base")) {
      try await SpeechAnalyzer(modules: [missing]).start(
        inputAudioFile: try AudioFile(forReading: Fixtures.jfk), finishAfterFile: true)
    }
    // The library names no command of the app's; the app's one-line message adds it.
    #expect(error?.localizedDescription == "the 'base' speech model is not installed in the models folder")
    #expect(error.map(FailureText.describe)?.hasSuffix("; run `voicenotes models install base`") == true)
  }

  @Test("analyzeSequence(_:) reads an AsyncThrowingStream of a real clip and returns the time of its end")
  func throwingInputSequence() async throws {
    let audio = try AudioFile(forReading: Fixtures.jfk).read()
    let (input, builder) = AsyncThrowingStream.makeStream(of: AnalyzerInput.self, throwing: (any Error).self)
    for start in stride(from: 0, to: audio.frameLength, by: 1_600) {
      builder.yield(AnalyzerInput(buffer: audio.frames(start..<min(start + 1_600, audio.frameLength))))
    }
    builder.finish()
    let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    let reading = Task {
      var finals: [String] = []
      for try await result in transcriber.results where result.isFinal { finals.append(String(result.text.characters)) }
      return finals.joined(separator: " ")
    }
    let end = try await analyzer.analyzeSequence(input)
    try await analyzer.finalizeAndFinishThroughEndOfInput()
    let text = try await reading.value
    #expect(abs((end?.seconds ?? 0) - audio.duration) < 0.01, "ended at \(String(describing: end))")
    let wer = WordErrorRate(reference: Fixtures.jfkText, hypothesis: text)
    #expect(wer.rate <= 0.05, "\(text) (\(wer))")
  }

  @Test("an error thrown by the input sequence mid-way ends the analysis with that error")
  func inputSequenceError() async throws {
    struct MicrophoneUnplugged: Error, Equatable {}
    let audio = try AudioFile(forReading: Fixtures.jfk).read()
    func failingInput() -> AsyncThrowingStream<AnalyzerInput, any Error> {
      let (input, builder) = AsyncThrowingStream.makeStream(of: AnalyzerInput.self, throwing: (any Error).self)
      for start in stride(from: 0, to: 48_000, by: 1_600) {
        builder.yield(AnalyzerInput(buffer: audio.frames(start..<start + 1_600)))
      }
      builder.finish(throwing: MicrophoneUnplugged())
      return input
    }

    // The convenience initializer: the results and finalizing throw the sequence's error.
    let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription)
    let analyzer = try await SpeechAnalyzer(inputSequence: failingInput(), modules: [transcriber])
    await #expect(throws: MicrophoneUnplugged()) { for try await _ in transcriber.results {} }
    await #expect(throws: MicrophoneUnplugged()) { try await analyzer.finalizeAndFinishThroughEndOfInput() }

    // analyzeSequence(_:) throws it too.
    let other = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription)
    await #expect(throws: MicrophoneUnplugged()) {
      try await SpeechAnalyzer(modules: [other]).analyzeSequence(failingInput())
    }
    await #expect(throws: MicrophoneUnplugged()) { for try await _ in other.results {} }
  }

  @Test("supported locales follow the model")
  func locales() async {
    #expect(
      await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "fr_CA")) == Locale(identifier: "fr"))
    #expect(SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "fr_CA"), model: .tinyEnglish) == nil)
    #expect(await SpeechTranscriber.supportedLocales.count >= 99)
    #expect(SpeechTranscriber.isAvailable)
  }
}
