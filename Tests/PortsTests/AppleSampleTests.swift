import AudioIO
import Foundation
import LanguageModels
import SpeechRecognition
import TestSupport
import Testing
import VoiceNotes

/// Apple's documented shapes for the legacy recognizer, in our own code, run against the engine.
@Suite("SFSpeechRecognizer in Apple's documented shape", .serialized, .timeLimit(.minutes(3)))
@MainActor
struct AppleSampleTests {
  @Test("a prerecorded file: partial results, then a final one with timed words")
  func prerecorded() async throws {
    let recognizer = PrerecordedAudioRecognizer()
    await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
      recognizer.recognizeFile(url: Fixtures.jfk) { finished.resume() }
    }
    #expect(recognizer.failure == nil, "\(String(describing: recognizer.failure))")
    let text = try #require(recognizer.transcription)
    #expect(WordErrorRate(reference: Fixtures.jfkText, hypothesis: text).edits == 0, "\(text)")
    #expect(recognizer.partialCount > 0)
    let words = recognizer.segments
    #expect(words.count == WordErrorRate.normalizedWords(Fixtures.jfkText).count)
    #expect(zip(words, words.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
    #expect(
      words.allSatisfy { $0.confidence > 0 && $0.duration >= 0 },
      "\(words.map { ($0.substring, $0.confidence, $0.duration) })")
    #expect(words.last.map { $0.timestamp + $0.duration <= 11.1 } == true)
  }

  @Test("a voice-memo recorder records the microphone, lists the memo when it finishes, and plays it back")
  func voiceMemo() async throws {
    let speech = try AudioFile(forReading: Fixtures.jfk).read()
    AVAudioEngine.inputDevice = try MicrophoneCaptureTestDevices.play(speech)
    try MicrophoneCaptureTestDevices.clearSpeaker()
    AVAudioEngine.outputDevice = MicrophoneCaptureTestDevices.speakerName
    defer {
      AVAudioEngine.inputDevice = .default
      AVAudioEngine.outputDevice = "default"
    }
    let folder = Fixtures.temporaryFolder("memos")
    defer { try? FileManager.default.removeItem(at: folder) }
    let model = VoiceMemoRecorder(folder: folder)
    model.startRecording()
    #expect(model.isRecording && model.failure == nil, "\(model.failure ?? "")")
    let deadline = Date().addingTimeInterval(30)
    while model.elapsed < 3, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
    model.stopRecording()
    while model.memos.isEmpty, model.failure == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
    let memo = try #require(model.memos.first, "the delegate heard the recording finish")
    #expect(memo.lastPathComponent == "Memo 1.m4a")
    let recorded = try AudioFile(forReading: memo)
    #expect(recorded.fileFormat.sampleRate == 12_000 && recorded.duration >= 3)
    #expect(recorded.codecName == "aac", "kAudioFormatMPEG4AAC stored as \(recorded.codecName)")
    // The memo holds the first words the microphone spoke (the last one may be cut off).
    let text = try await FileTranscriber(model: .base).transcribe(memo).text
    let words = WordErrorRate.normalizedWords(text)
    let spoken = WordErrorRate.normalizedWords(Fixtures.jfkText)
    #expect(words.count >= 3 && Array(spoken.prefix(words.count - 1)) == Array(words.dropLast()), "\(text)")
    #expect(abs(await model.duration(of: memo) - recorded.duration) < 0.01)

    model.play(memo)
    #expect(
      model.isPlaying && abs(model.playingDuration - recorded.duration) < 0.01,
      "\(model.playingDuration) against \(recorded.duration)")
    while model.isPlaying, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
    #expect(!model.isPlaying, "the player's delegate heard it finish")
    let heard = try MicrophoneCaptureTestDevices.speakerOutput()
    #expect(abs(Double(heard.frameLength) / 16_000 - recorded.duration) < 0.05, "the whole memo was played")
    // Recorded at 12 kHz and played at 16 kHz, it is the microphone's speech without what lies
    // above 6 kHz, shifted by the two resamplers' delays by a few samples at most.
    let count = min(heard.frameLength, speech.frameLength) - 16
    let correlation =
      (0..<16).map { lag in
        let played = heard.samples[lag..<(lag + count)]
        let spoken = speech.samples.prefix(count)
        let product = zip(played, spoken).reduce(0) { $0 + Double($1.0) * Double($1.1) }
        let energy = played.reduce(0) { $0 + Double($1 * $1) } * spoken.reduce(0) { $0 + Double($1 * $1) }
        return product / energy.squareRoot()
      }.max() ?? 0
    #expect(correlation > 0.9, "what was played back is what was recorded: correlation \(correlation)")
  }

  @Test("a memo played at one and a half times its speed keeps its words")
  func fasterPlayback() async throws {
    try MicrophoneCaptureTestDevices.clearSpeaker()
    AVAudioEngine.outputDevice = MicrophoneCaptureTestDevices.speakerName
    defer { AVAudioEngine.outputDevice = "default" }
    let player = try AVAudioPlayer(contentsOf: Fixtures.jfk)
    player.enableRate = true
    player.rate = 1.5
    player.play()
    let deadline = Date().addingTimeInterval(30)
    while player.isPlaying, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
    let heard = try MicrophoneCaptureTestDevices.speakerOutput()
    #expect(abs(heard.duration - 11.0 / 1.5) < 0.1, "\(heard.duration) s")
    let folder = Fixtures.temporaryFolder("faster")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("faster.wav")
    try WAVWriter.write(heard, to: file)
    let text = try await FileTranscriber(model: .base).transcribe(file).text
    let rate = WordErrorRate(reference: Fixtures.jfkText, hypothesis: text)
    #expect(rate.edits <= 1, "\(text)")
  }

  @Test("without addsPunctuation the text has none; a file with no speech ends with an error")
  func punctuationAndSilence() async throws {
    let recognizer = try #require(SFSpeechRecognizer(locale: Locale(identifier: "en-US")))
    recognizer.queue = OperationQueue()
    let request = SFSpeechURLRecognitionRequest(url: Fixtures.jfk)
    request.shouldReportPartialResults = false
    let final: String = try await withCheckedThrowingContinuation { continuation in
      recognizer.recognitionTask(with: request) { result, error in
        if let error { continuation.resume(throwing: error) }
        if let result, result.isFinal { continuation.resume(returning: result.bestTranscription.formattedString) }
      }
    }
    #expect(!final.contains(",") && !final.contains("."), "\(final)")

    let folder = Fixtures.temporaryFolder("silence")
    defer { try? FileManager.default.removeItem(at: folder) }
    let silence = folder.appendingPathComponent("silence.wav")
    try Fixtures.run([
      "ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "2", silence.path,
    ])
    let error: (any Error)? = await withCheckedContinuation { continuation in
      recognizer.recognitionTask(with: SFSpeechURLRecognitionRequest(url: silence)) { result, error in
        if let error { continuation.resume(returning: error) }
        if let result, result.isFinal { continuation.resume(returning: nil) }
      }
    }
    #expect((error as? SFSpeechError)?.code == .noSpeechDetected, "\(String(describing: error))")
    #expect(SFSpeechRecognizer(locale: Locale(identifier: "tlh")) == nil)
    #expect(SFSpeechRecognizer.authorizationStatus() == .authorized)
  }
}

/// AssetInventory's reservations, as Apple's speech-to-text sample manages them.
@Suite("AssetInventory reservations")
struct AssetReservationTests {
  @Test("reserve, list and release locales; unsupported ones are refused")
  func reservations() async throws {
    let english = Locale(identifier: "en_US")
    #expect(try await AssetInventory.reserve(locale: english))
    #expect(try await AssetInventory.reserve(locale: english) == false)
    #expect(await AssetInventory.reservedLocales.contains { $0.language.languageCode == "en" })
    await #expect(throws: SpeechRecognition.SpeechTranscriptionError.self) {
      try await AssetInventory.reserve(locale: Locale(identifier: "tlh"))
    }
    #expect(await AssetInventory.release(reservedLocale: english))
    #expect(await AssetInventory.release(reservedLocale: english) == false)
    #expect(await AssetInventory.reservedLocales.isEmpty)

  }
}

/// Apple's speech-to-text sample's shape: record through the engine into a file while the
/// transcriber streams, then the story holds the text with timed words and the file the audio.
@Suite("Apple's speech-to-text sample, in its shape", .serialized, .timeLimit(.minutes(3)))
struct SpeechToTextSampleTests {
  @Test("recording writes the microphone's audio to a file and transcribes it with word times")
  func recordAndTranscribe() async throws {
    let folder = Fixtures.temporaryFolder("speech-sample")
    defer { try? FileManager.default.removeItem(at: folder) }
    let speech = try AudioFile(forReading: Fixtures.jfk).read()
    var played = speech
    // The sample stops as Apple's does: buffers its recording loop has not yet handed to the
    // transcriber when it stops are dropped. The speech is followed by three seconds of silence.
    played.samples += [Float](repeating: 0, count: 3 * 16_000)
    AVAudioEngine.inputDevice = try MicrophoneCaptureTestDevices.play(played)
    defer { AVAudioEngine.inputDevice = .default }

    let story = Story()
    let transcriber = SpokenWordTranscriber(story: story)
    try await transcriber.reserveLocale()
    let recorder = Recorder(transcriber: transcriber, story: story, folder: folder)
    let recording = Task { try await recorder.record() }
    let deadline = Date().addingTimeInterval(60)
    while (recorder.file?.length ?? 0) < AVAudioFramePosition(played.frameLength), Date() < deadline {
      try await Task.sleep(for: .milliseconds(50))
    }
    // The test device is not paced by a clock: the file holds the 14 s in about 0.3 s, far ahead
    // of the sample's recording loop, which a transcriber busy on both cores can hold up for a
    // moment (a clean-clone run lost "your country" with stop pressed at once). A person presses
    // stop a moment after the last word, not the instant it ends.
    try await Task.sleep(for: .seconds(1))
    try await recorder.stopRecording()
    try await recording.value
    await transcriber.releaseLocales()

    let text = String(story.text.characters)
    #expect(WordErrorRate(reference: Fixtures.jfkText, hypothesis: text).rate <= 0.05, "\(text)")
    #expect(story.text.runs.contains { $0.audioTimeRange != nil }, "words carry their audio time ranges")
    #expect(story.isDone)
    let url = try #require(story.url)
    let written = try AudioFile(forReading: url).read()
    #expect(written.frameLength >= played.frameLength, "\(written.frameLength) frames written of \(played.frameLength)")
    #expect(
      WordErrorRate(
        reference: Fixtures.jfkText,
        hypothesis: try await SpeechTranscriptionService().transcribeAudio(at: url)
      ).edits == 0, "the file holds the speech")
    #expect(await AssetInventory.reservedLocales.isEmpty)

    // Playing the recording back sends it to the speaker.
    try MicrophoneCaptureTestDevices.clearSpeaker()
    AVAudioEngine.outputDevice = MicrophoneCaptureTestDevices.speakerName
    defer { AVAudioEngine.outputDevice = "default" }
    let playedBack = CompletionSignal()
    recorder.playRecording { playedBack.fire() }
    let playing = Date().addingTimeInterval(30)
    while !playedBack.fired, Date() < playing { try await Task.sleep(for: .milliseconds(20)) }
    recorder.stopPlaying()
    #expect(playedBack.fired)
    #expect(abs(try MicrophoneCaptureTestDevices.speakerOutput().frameLength - written.frameLength) < 1_600)
  }
}

/// A completion handler's call, seen from the test.
final class CompletionSignal: @unchecked Sendable {
  private let lock = NSLock()
  private var called = false
  func fire() { lock.withLock { called = true } }
  var fired: Bool { lock.withLock { called } }
}

/// FoundationModels' documented shapes, against the default model.
@Suite("FoundationModels in Apple's documented shape", .serialized, .timeLimit(.minutes(3)))
struct FoundationModelsDocumentationTests {
  @Test("availability, guided generation with guides, a tool that returns a list, the transcript")
  func documentedShapes() async throws {
    #expect(availabilityMessage() == "ready")
    let cat = try #require(try await generateCat())
    #expect((0...20).contains(cat.age))
    #expect(!cat.name.isEmpty && !cat.profile.isEmpty)

    let session = LanguageModelSession(
      tools: [FindContacts()], instructions: "Use the findContacts tool to answer questions about contacts.")
    let answer = try await session.respond(
      to: "Name two of my contacts.", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 80))
    #expect(["Ada", "Grace"].allSatisfy { answer.content.contains($0) }, "\(answer.content)")
    let lines = conversation(of: session)
    #expect(lines.first == "user: Name two of my contacts.", "\(lines)")
    #expect(lines.contains("tools: findContacts"), "\(lines)")
    #expect(lines.last?.hasPrefix("model: ") == true)
    if case .instructions(let instructions) = session.transcript.first {
      #expect(instructions.toolDefinitions.map(\.name) == ["findContacts"])
    } else {
      Issue.record("the transcript starts with the instructions")
    }
  }
}
