import AudioIO
import Foundation
import SpeechRecognition
import TestSupport
import Testing

/// SpeechDetector: where people speak, from the Silero model, alone or next to a transcriber.
@Suite("SpeechDetector", .serialized)
struct SpeechDetectorTests {
  /// Runs `detector` over `passage` fed as live input, as fast as the analyzer takes it.
  func detect(_ passage: SpokenPassage, with modules: [any SpeechModule]) async throws {
    let analyzer = SpeechAnalyzer(modules: modules)
    try await analyzer.start(inputSequence: LiveFeed(passage.audio, speed: nil).inputs)
    try await analyzer.finalizeAndFinishThroughEndOfInput()
  }

  /// Checks that `results` tile the passage and match its speech and its pauses.
  func check(_ results: [SpeechDetector.Result], against passage: SpokenPassage) {
    // Stretches follow each other without gaps, alternate, and span the whole input.
    #expect(results.first?.range.start == .zero)
    #expect(abs((results.last?.range.end.seconds ?? 0) - passage.audio.duration) < 0.001)
    for (previous, next) in zip(results, results.dropFirst()) {
      #expect(next.range.start == previous.range.end)
      #expect(next.speechDetected != previous.speechDetected)
    }
    #expect(results.allSatisfy { $0.isFinal })
    func isSpeech(_ sample: Int) -> Bool? {
      let time = CMTime(value: Int64(sample), timescale: Int32(SpokenPassage.sampleRate))
      return results.first { $0.range.containsTime(time) }?.speechDetected
    }
    // Loud frames of the recordings are speech...
    let loud = passage.loudFrames
    let missed = loud.filter { isSpeech($0.lowerBound + $0.count / 2) != true }
    #expect(Double(missed.count) <= 0.02 * Double(loud.count), "\(missed.count) of \(loud.count) loud frames missed")
    // ...and the pauses between them, away from their edges, are not.
    var pauses: [Range<Int>] = []
    var previousEnd = 0
    for piece in passage.pieces {
      pauses.append(previousEnd..<piece.range.lowerBound)
      previousEnd = piece.range.upperBound
    }
    pauses.append(previousEnd..<passage.samples.count)
    let margin = SpokenPassage.sampleRate * 4 / 10
    for pause in pauses where pause.count > 2 * margin {
      for sample in stride(from: pause.lowerBound + margin, to: pause.upperBound - margin, by: 800) {
        #expect(isSpeech(sample) == false, "speech reported in a pause at \(Double(sample) / 16_000) s")
      }
    }
  }

  @Test("live input: speech over the spoken parts, none over the pauses")
  func live() async throws {
    let folder = Fixtures.temporaryFolder("detector")
    defer { try? FileManager.default.removeItem(at: folder) }
    let passage = try SpokenPassage.standard(in: folder)
    let detector = SpeechDetector()
    let results = Arrivals.collect(detector.results)
    try await detect(passage, with: [detector])
    let stretches = try await results.value.results.map(\.result)
    #expect(stretches.filter(\.speechDetected).count >= passage.pieces.count)
    check(stretches, against: passage)
  }

  @Test("file input gives the same stretches as live input")
  func file() async throws {
    let folder = Fixtures.temporaryFolder("detector-file")
    defer { try? FileManager.default.removeItem(at: folder) }
    let passage = try SpokenPassage.standard(in: folder)
    let detector = SpeechDetector()
    let analyzer = SpeechAnalyzer(modules: [detector])
    try await analyzer.start(inputAudioFile: try AudioFile(forReading: passage.file), finishAfterFile: true)
    var fromFile: [SpeechDetector.Result] = []
    for try await result in detector.results { fromFile.append(result) }
    check(fromFile, against: passage)

    let liveDetector = SpeechDetector()
    let live = Arrivals.collect(liveDetector.results)
    try await detect(passage, with: [liveDetector])
    #expect(try await live.value.results.map(\.result) == fromFile)
  }

  @Test("next to a transcriber, both publish from one pass over the input")
  func withTranscriber() async throws {
    let folder = Fixtures.temporaryFolder("detector-transcriber")
    defer { try? FileManager.default.removeItem(at: folder) }
    let passage = try SpokenPassage.make(Array(Fixtures.librivox.prefix(2)), pause: 1.5, in: folder)
    let detector = SpeechDetector(detectionOptions: .init(sensitivityLevel: .high), reportResults: true)
    let transcriber = SpeechTranscriber(model: .tinyEnglish, locale: Locale(identifier: "en_US"))
    let detected = Arrivals.collect(detector.results)
    let transcribed = Arrivals.collect(transcriber.results)
    try await detect(passage, with: [detector, transcriber])
    check(try await detected.value.results.map(\.result), against: passage)
    let text = try await transcribed.value.results.map { $0.result.plainText }.joined(separator: " ")
    #expect(text.lowercased().contains("dashwood"), "\(text)")
  }

  @Test("lower sensitivity finds no more speech than higher sensitivity; reportResults false publishes nothing")
  func sensitivity() async throws {
    let folder = Fixtures.temporaryFolder("detector-sensitivity")
    defer { try? FileManager.default.removeItem(at: folder) }
    let passage = try SpokenPassage.make(Array(Fixtures.librivox.prefix(3)), pause: 1, in: folder)
    var speech: [SpeechDetector.SensitivityLevel: Double] = [:]
    for level in SpeechDetector.SensitivityLevel.allCases {
      let detector = SpeechDetector(detectionOptions: .init(sensitivityLevel: level), reportResults: true)
      let results = Arrivals.collect(detector.results)
      try await detect(passage, with: [detector])
      speech[level] = try await results.value.results.map(\.result).filter(\.speechDetected)
        .reduce(0) { $0 + $1.range.duration.seconds }
    }
    print("seconds of speech by sensitivity: \(speech)")
    #expect(speech[.low]! <= speech[.medium]! && speech[.medium]! <= speech[.high]!)
    #expect(speech[.low]! > 0)

    let silent = SpeechDetector(detectionOptions: .init(sensitivityLevel: .medium), reportResults: false)
    let none = Arrivals.collect(silent.results)
    try await detect(passage, with: [silent])
    #expect(try await none.value.results.isEmpty)
  }

  @Test("a missing voice-activity model fails at start and says which file to put where")
  func missingModel() async throws {
    let empty = Fixtures.temporaryFolder("no-vad")
    defer { try? FileManager.default.removeItem(at: empty) }
    let detector = SpeechDetector(
      detectionOptions: .init(sensitivityLevel: .medium), reportResults: true,
      modelDirectory: ModelDirectory(url: empty))
    let (inputs, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
    continuation.finish()
    let path = empty.appendingPathComponent("ggml-silero-vad.bin").path
    let error = await #expect(throws: SpeechTranscriptionError.voiceActivityModelMissing(path: path)) {
      try await SpeechAnalyzer(modules: [detector]).start(inputSequence: inputs)
    }
    #expect(
      error?.localizedDescription.contains("put ggml-silero-vad.bin from the whisper.cpp sources in the models folder")
        == true)
    await #expect(throws: SpeechTranscriptionError.self) { for try await _ in detector.results {} }
  }
}
