import AudioIO
import Foundation
import LanguageModels
import SpeechRecognition
import Synchronization
import TestSupport
import Testing
import VoiceNotes

/// The seeds' code, compiled here with only its imports changed (see the Seed folders), run
/// against the real engines and models.
@Suite("Apple's code, ported by changing the imports", .serialized, .timeLimit(.minutes(6)))
@MainActor
struct SeedPortTests {
  @Test("seed 000: SpeechTranscriptionService.transcribeAudio(at:) transcribes a real clip")
  func seed000Transcription() async throws {
    let transcript = try await SpeechTranscriptionService().transcribeAudio(at: Fixtures.jfk)
    let wer = WordErrorRate(reference: Fixtures.jfkText, hypothesis: transcript)
    #expect(wer.edits == 0, "jfk.wav: \(transcript) (\(wer))")
  }

  @Test("seed 001: NoteAnalysisService.analyze(transcript:) fills the chapter's NoteAnalysis")
  func seed001Analysis() async throws {
    let transcript = """
      Quick note after the planning call. Priya will send the budget report by Friday, and I need to \
      book the conference room for the design review next Tuesday. Also remember to call Marcus about \
      the venue deposit.
      """
    let analysis = try await NoteAnalysisService().analyze(transcript: transcript)
    #expect(!analysis.title.isEmpty)
    #expect(!analysis.summary.isEmpty)
    #expect((1...5).contains(analysis.tags.count), "tags: \(analysis.tags)")
    #expect(analysis.people.contains { $0.contains("Priya") }, "people: \(analysis.people)")
    #expect(!analysis.actionItems.isEmpty, "no action items")
    let items = analysis.actionItems.map(NoteActionItem.init(from:))
    #expect(Set(items.map(\.id)).count == items.count)
    await #expect(throws: NoteAnalysisError.self) { try await NoteAnalysisService().analyze(transcript: "") }
  }

  @Test("seed 002: TranscriptionManager fed through AVAudioEngine's tap transcribes what the microphone hears")
  func seed002Live() async throws {
    let speech = try AudioFile(forReading: Fixtures.jfk).read()
    // A second of silence after the speech, so the last words end in a pause.
    var played = speech
    played.samples += [Float](repeating: 0, count: 16_000)
    // A 44.1 kHz microphone, as most are: the tap delivers that rate, so the seed's BufferConverter
    // converts every buffer with AVAudioConverter to the analyzer's 16 kHz.
    AVAudioEngine.inputDevice = try MicrophoneCaptureTestDevices.play(played, sampleRate: 44_100)
    defer { AVAudioEngine.inputDevice = .default }

    let audioManager = AudioManager()
    let transcriptionManager = TranscriptionManager()
    #expect(await audioManager.requestMicrophonePermission())
    #expect(await transcriptionManager.requestSpeechPermission())
    try audioManager.setupAudioSession()
    #expect(AVAudioSession.sharedInstance().category == .record)

    let finals = ResultLog()
    try await transcriptionManager.startTranscription { text, isFinal in finals.add(text, isFinal: isFinal) }
    let fed = FrameCount()
    try audioManager.startAudioStream { buffer in
      fed.add(Int(buffer.frameLength), rate: buffer.format.sampleRate)
      try? transcriptionManager.processAudioBuffer(buffer)
    }
    // The test device is not paced by a clock: wait until the whole clip and its pause went in.
    let deadline = Date().addingTimeInterval(60)
    while fed.seconds < played.duration, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
    audioManager.stopAudioStream()
    await transcriptionManager.stopTranscription()

    #expect(fed.seconds >= played.duration, "the tap delivered \(fed.seconds) s of \(played.duration) s")
    #expect(fed.rates == [44_100], "the tap's rates: \(fed.rates)")
    let analyzerFormat = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [])
    #expect(analyzerFormat?.sampleRate == 16_000, "the analyzer takes 16 kHz, so every buffer was converted")
    let text = finals.finalText
    let wer = WordErrorRate(reference: Fixtures.jfkText, hypothesis: text)
    #expect(wer.rate <= 0.05, "live through the tap: \(text) (\(wer))")
  }

  @Test("seed 003: the custom-language-model app sets the background from spoken commands")
  func seed003Commands() async throws {
    let resources = try #require(Bundle.main.resourcePath)
    try await generateModel(path: resources)
    let view = ContentView()
    view.onAppear()
    let ready = Date().addingTimeInterval(60)
    while !view.recordButtonEnabled, Date() < ready { try await Task.sleep(for: .milliseconds(50)) }
    #expect(view.recordButtonLabel == "Start recording", "\(view.recordButtonLabel)")
    #expect(view.viewModel.speechRecognizer.isAvailable)

    // One command for each branch of the seed's result handler: a colour it sets from "Set
    // background to <color>", yellow, which it does not handle ("Color not recognized", so the
    // background stays white once the command has been heard), and both "I am <element>" cases.
    // Each command is its own recording, as in the app: the handler counts the words of the whole
    // transcription, so commands said in one recording would never match. A recording costs
    // 11-15 s here, so blue and red, which take the same branch as green, are left out.
    let commands: [(command: String, colour: Color)] = [
      ("Set background to green", .green), ("Set background to yellow", .white), ("I am fire", .orange),
      ("I am sea", .blue),
    ]
    for (command, colour) in commands {
      let folder = Fixtures.temporaryFolder("seed003")
      defer { try? FileManager.default.removeItem(at: folder) }
      let spoken = folder.appendingPathComponent("command.wav")
      try Fixtures.speak(command, to: spoken)
      var audio = try AudioFile(forReading: spoken).read()
      audio.samples = [Float](repeating: 0, count: 8_000) + audio.samples + [Float](repeating: 0, count: 24_000)
      AVAudioEngine.inputDevice = try MicrophoneCaptureTestDevices.play(audio)
      defer { AVAudioEngine.inputDevice = .default }
      view.viewModel.backgroundColor = .white
      view.viewModel.lastText = ""

      view.buttonTapped()
      #expect(view.isRecording)
      let heard = Date().addingTimeInterval(60)
      while Date() < heard {
        let done =
          colour == .white ? view.viewModel.lastText == command : view.viewModel.backgroundColor == colour
        if done { break }
        try await Task.sleep(for: .milliseconds(50))
      }
      view.buttonTapped()
      #expect(!view.isRecording)
      #expect(view.viewModel.lastText == command, "heard \"\(view.viewModel.lastText)\" for \"\(command)\"")
      #expect(view.viewModel.backgroundColor == colour, "heard \"\(view.viewModel.lastText)\" for \"\(command)\"")
    }
  }

  @Test("seed 004: ItineraryPlanner streams an itinerary that calls the points-of-interest tool")
  func seed004Itinerary() async throws {
    let landmark = try #require(ModelData.landmarks.first { $0.name == "Joshua Tree" })
    let planner = ItineraryPlanner(landmark: landmark)
    planner.prewarm()
    try await planner.suggestItinerary(dayCount: 3)
    let itinerary = try #require(planner.itinerary)
    #expect(itinerary.title?.isEmpty == false)
    #expect(itinerary.destinationName == "Joshua Tree")
    #expect(itinerary.days?.count == 3)
    #expect(itinerary.days?.allSatisfy { $0.activities?.count == 3 } == true)
    #expect(!planner.pointOfInterestTool.lookupHistory.isEmpty, "the model never called the tool")
  }
}

/// What a transcription callback heard, collected across threads.
nonisolated final class ResultLog: Sendable {
  private let finals = Mutex<[String]>([])

  func add(_ text: String, isFinal: Bool) {
    guard isFinal else { return }
    finals.withLock { $0.append(text) }
  }

  var finalText: String { finals.withLock { $0.joined(separator: " ") } }
}

/// Seconds of audio a tap delivered, and at which rates, counted across threads.
nonisolated final class FrameCount: Sendable {
  private let state = Mutex((seconds: 0.0, rates: Set<Double>()))

  func add(_ frames: Int, rate: Double) {
    state.withLock {
      $0.seconds += Double(frames) / rate
      $0.rates.insert(rate)
    }
  }

  var seconds: Double { state.withLock { $0.seconds } }
  var rates: Set<Double> { state.withLock { $0.rates } }
}
