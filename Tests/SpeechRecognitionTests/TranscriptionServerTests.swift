import AudioIO
import Foundation
import TestSupport
import Testing
import VoiceNotes

@testable import SpeechRecognition

/// The OpenAI-compatible backend against a real whisper.cpp `whisper-server` on loopback (built
/// by the bootstrap, base model), on real speech: accuracy equal to the local engine's, long
/// files cut at pauses with their times in place, a server that is down, selection by
/// configuration. Model tests: one at a time.
@Suite("Transcription through whisper-server", .serialized)
struct TranscriptionServerTests {
  /// The base model, as the local backend uses it.
  static let model = Fixtures.models.appendingPathComponent(SpeechModel.base.fileName)

  /// A whisper-server with the base model, decoding as the local engine does (beam of 5).
  static func startServer() async throws -> ReferenceServer {
    try await ReferenceServer.start(.whisper, model: model, arguments: ["-bs", "5"])
  }

  /// The final results of transcribing `url` in English through `backend`, in a SpeechAnalyzer.
  static func transcribe(_ url: URL, backend: any TranscriptionBackend) async throws -> [SpeechTranscriber.Result] {
    let transcriber = SpeechTranscriber(
      model: .base, locale: Locale(identifier: "en_US"), attributeOptions: [.audioTimeRange, .transcriptionConfidence],
      backend: backend)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    try await analyzer.start(inputAudioFile: try AudioFile(forReading: url), finishAfterFile: true)
    var results: [SpeechTranscriber.Result] = []
    for try await result in transcriber.results where result.isFinal { results.append(result) }
    return results
  }

  static func text(_ results: [SpeechTranscriber.Result]) -> String {
    results.map { String($0.text.characters) }.joined(separator: " ")
  }

  /// Results in order, each inside the audio (with a little slack), words inside their result.
  static func expectPlausibleTimes(_ results: [SpeechTranscriber.Result], duration: Double) {
    var previousStart = -1.0
    for result in results {
      let start = result.range.start.seconds
      let end = result.range.end.seconds
      #expect(start >= previousStart, "results out of order at \(start)")
      #expect(start >= 0 && end <= duration + 0.5 && end >= start, "range \(start)-\(end) of \(duration) s")
      previousStart = start
      for run in result.text.runs {
        guard let range = run.speech.audioTimeRange else {
          Issue.record("a word without a time range")
          continue
        }
        #expect(range.start.seconds >= start - 0.05 && range.end.seconds <= end + 0.05)
      }
    }
  }

  @Test("jfk.wav and the LibriVox utterances: the server's WER equals the local engine's within 1 point")
  func accuracyMatchesLocal() async throws {
    let utterances = Fixtures.librivox
    try #require(utterances.count == 5, "pocketsphinx-testdata is missing")
    let server = try await Self.startServer()
    defer { server.stop() }
    let remote = OpenAITranscriptionBackend(endpoint: .init(url: server.baseURL))
    let local = WhisperBackend(model: .base)

    let clips = [(Fixtures.jfk, Fixtures.jfkText)] + utterances.map { ($0.audio, $0.reference) }
    var localTotal = WordErrorRate.zero
    var serverTotal = WordErrorRate.zero
    for (audio, reference) in clips {
      let localResults = try await Self.transcribe(audio, backend: local)
      let serverResults = try await Self.transcribe(audio, backend: remote)
      let localRate = WordErrorRate(reference: reference, hypothesis: Self.text(localResults))
      let serverRate = WordErrorRate(reference: reference, hypothesis: Self.text(serverResults))
      print("\(audio.lastPathComponent): local \(localRate), server \(serverRate): \(Self.text(serverResults))")
      Self.expectPlausibleTimes(serverResults, duration: try AudioFile(forReading: audio).duration)
      #expect(serverResults.allSatisfy { $0.text.runs.allSatisfy { $0.speech.transcriptionConfidence != nil } })
      localTotal = localTotal + localRate
      serverTotal = serverTotal + serverRate
    }
    print("WER over jfk + LibriVox: local \(localTotal), server \(serverTotal)")
    #expect(abs(serverTotal.rate - localTotal.rate) <= 0.01, "local \(localTotal), server \(serverTotal)")
  }

  @Test("a file longer than the per-request limit is cut at pauses, its times in the right places")
  func longFileIsSplit() async throws {
    let folder = Fixtures.temporaryFolder("server-split")
    defer { try? FileManager.default.removeItem(at: folder) }
    let jfk = try AudioFile(forReading: Fixtures.jfk).read(format: .speechAnalysis).samples
    let libri = try AudioFile(forReading: try #require(Fixtures.librivox.first).audio).read(format: .speechAnalysis)
      .samples
    let silence = [Float](repeating: 0, count: 4 * 16_000)
    let joined = jfk + silence + libri + silence + jfk
    let secondJFK = Double(jfk.count + silence.count + libri.count + silence.count) / 16_000
    let long = folder.appendingPathComponent("long.wav")
    try WAVWriter.write(AudioBuffer(format: .speechAnalysis, samples: joined), to: long)
    let duration = Double(joined.count) / 16_000

    let server = try await Self.startServer()
    defer { server.stop() }
    let limits = OpenAITranscriptionBackend.Limits(maximumDuration: 15)
    let backend = OpenAITranscriptionBackend(endpoint: .init(url: server.baseURL), limits: limits)
    let pieces = try await backend.plan(AudioBuffer(format: .speechAnalysis, samples: joined), shouldAbort: { false })
    print(
      "\(duration) s in pieces (s): \(pieces.map { "\(Double($0.lowerBound) / 16_000)-\(Double($0.upperBound) / 16_000)" })"
    )
    #expect(pieces.count >= 3)
    #expect(pieces.allSatisfy { $0.count <= 15 * 16_000 })

    let results = try await Self.transcribe(long, backend: backend)
    Self.expectPlausibleTimes(results, duration: duration)
    let americans = results.flatMap { result in
      result.text.runs.filter { String(result.text[$0.range].characters).contains("Americans") }
        .compactMap { $0.speech.audioTimeRange?.start.seconds }
    }
    print("\"Americans\" at \(americans) s; the second jfk.wav starts at \(secondJFK) s")
    #expect(americans.count == 2)
    if americans.count == 2 {
      // "fellow Americans" is said about 2 s into jfk.wav; the second time, in the last piece,
      // as far after the first as the second clip starts after the first (Whisper's word times
      // are good to about a second).
      #expect(americans[0] > 1 && americans[0] < 4)
      #expect(abs(americans[1] - americans[0] - secondJFK) < 1.5, "\(americans[1] - americans[0]) vs \(secondJFK)")
    }
    let reference = [Fixtures.jfkText, try #require(Fixtures.librivox.first).reference, Fixtures.jfkText]
      .joined(separator: " ")
    let rate = WordErrorRate(reference: reference, hypothesis: Self.text(results))
    print("split long file WER: \(rate)")
    #expect(rate.rate <= 0.1)
  }

  @Test("a server that is down: a one-line error naming its URL, from the analyzer and the asset inventory")
  func serverDown() async throws {
    let server = try await Self.startServer()
    let url = server.baseURL
    server.stop()
    let backend = OpenAITranscriptionBackend(endpoint: .init(url: url))
    let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription, backend: backend)

    #expect(await AssetInventory.status(forModules: [transcriber]) == .supported)
    let inventoryError = await #expect(throws: SpeechTranscriptionError.self) {
      _ = try await AssetInventory.assetInstallationRequest(supporting: [transcriber])
    }
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    try await analyzer.start(inputAudioFile: try AudioFile(forReading: Fixtures.jfk), finishAfterFile: true)
    let error = await #expect(throws: SpeechTranscriptionError.self) {
      for try await _ in transcriber.results {}
    }
    for error in [inventoryError, error] {
      guard case .serverUnreachable(let named, _) = error else {
        Issue.record("expected serverUnreachable, got \(String(describing: error))")
        continue
      }
      #expect(named == url.absoluteString)
      let message = error?.localizedDescription ?? ""
      print(message)
      #expect(message.contains(url.absoluteString) && !message.contains("\n"))
    }
  }

  @Test("an HTTP error from the server is one line with its status and the server's words")
  func httpError() async throws {
    let server = try await Self.startServer()
    defer { server.stop() }
    // whisper-server answers only its inference path; anything under another prefix is a 404.
    let backend = OpenAITranscriptionBackend(endpoint: .init(url: server.baseURL.appendingPathComponent("nothing")))
    let error = await #expect(throws: SpeechTranscriptionError.self) {
      _ = try await backend.transcribe(
        AudioBuffer(format: .speechAnalysis, samples: [Float](repeating: 0, count: 16_000)),
        request: TranscriptionRequest(language: "en"), shouldAbort: { false }, onSegment: { _ in })
    }
    print(error?.localizedDescription ?? "")
    guard case .serverError(_, let status, _) = error else {
      Issue.record("expected serverError, got \(String(describing: error))")
      return
    }
    #expect(status == 404)
  }

  @Test("cancelling the task stops a request in flight")
  func cancellation() async throws {
    let server = try await Self.startServer()
    defer { server.stop() }
    let backend = OpenAITranscriptionBackend(endpoint: .init(url: server.baseURL))
    let audio = try AudioFile(forReading: Fixtures.jfk).read(format: .speechAnalysis)
    let started = ContinuousClock.now
    let task = Task {
      try await backend.transcribe(
        AudioBuffer(format: .speechAnalysis, samples: audio.samples + audio.samples + audio.samples),
        request: TranscriptionRequest(language: "en"), shouldAbort: { false }, onSegment: { _ in })
    }
    try await Task.sleep(for: .milliseconds(300))
    task.cancel()
    await #expect(throws: SpeechTranscriptionError.cancelled) { _ = try await task.value }
    #expect(ContinuousClock.now - started < .seconds(3))
  }

  @Test(
    "selected only by configuration: SpeechTranscriber(locale:preset:) and the app's FileTranscriber use the server")
  func selectedByConfiguration() async throws {
    let server = try await Self.startServer()
    defer { server.stop() }
    setenv("VOICENOTES_TRANSCRIPTION_SERVER", server.baseURL.absoluteString, 1)
    defer { unsetenv("VOICENOTES_TRANSCRIPTION_SERVER") }

    let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription)
    #expect(transcriber.backend is OpenAITranscriptionBackend)
    #expect(await AssetInventory.status(forModules: [transcriber]) == .installed)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    try await analyzer.start(inputAudioFile: try AudioFile(forReading: Fixtures.jfk), finishAfterFile: true)
    var text = ""
    for try await result in transcriber.results where result.isFinal { text += String(result.text.characters) + " " }
    #expect(WordErrorRate.normalizedWords(text) == WordErrorRate.normalizedWords(Fixtures.jfkText))
    #expect(transcriber.detectedLanguage == "en")

    let transcript = try await FileTranscriber(model: .base, locale: nil).transcribe(Fixtures.jfk)
    #expect(WordErrorRate.normalizedWords(transcript.text) == WordErrorRate.normalizedWords(Fixtures.jfkText))
    #expect(transcript.language == "en")
  }
}
