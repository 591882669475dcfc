import AudioIO
import Foundation
import SpeechRecognition
import TestSupport
import Testing
import VoiceNotes

/// Apple's legacy recognizer over the Whisper engine: live requests, the delegate forms,
/// cancelling and finishing, availability.
@Suite("SFSpeechRecognizer", .serialized, .timeLimit(.minutes(3)))
struct SFSpeechRecognizerTests {
  private func recognizer() throws -> SFSpeechRecognizer {
    let recognizer = try #require(SFSpeechRecognizer(locale: Locale(identifier: "en-US")))
    recognizer.queue = OperationQueue()
    return recognizer
  }

  @Test("a buffer request fed in any format ends with one final result after endAudio()")
  func liveRequest() async throws {
    let speech = try AudioFile(forReading: Fixtures.jfk).read(format: AudioFormat(sampleRate: 44_100, channelCount: 2))
    let request = SFSpeechAudioBufferRecognitionRequest()
    request.addsPunctuation = true
    let log = RecognitionLog()
    let task = try recognizer().recognitionTask(with: request) { result, error in log.add(result, error) }
    for start in stride(from: 0, to: speech.frameLength, by: 4_410) {
      request.append(AVAudioPCMBuffer(speech.frames(start..<min(start + 4_410, speech.frameLength))))
    }
    request.endAudio()
    let final = try await log.final(within: 60)
    #expect(final.isFinal)
    #expect(
      WordErrorRate(reference: Fixtures.jfkText, hypothesis: final.bestTranscription.formattedString).edits == 0,
      "\(final.bestTranscription.formattedString)")
    #expect(log.partials > 0, "partial results while the audio came in")
    let metadata = try #require(final.speechRecognitionMetadata, "the final result says how it was spoken")
    #expect((100...250).contains(metadata.speakingRate), "\(metadata.speakingRate) words a minute")
    #expect(metadata.speechStartTimestamp < 1 && (8...11).contains(metadata.speechDuration))
    #expect(metadata.averagePauseDuration >= 0 && metadata.averagePauseDuration < 1)
    // Voice analytics, measured from the audio appended: a frame every 10 ms, voiced within the
    // words far more than outside them.
    let voice = try #require(metadata.voiceAnalytics, "the final result's voice analytics")
    let voicing = voice.voicing.acousticFeatureValuePerFrame.map(\.doubleValue)
    // The last 30 ms start no 40 ms window.
    #expect(abs(voicing.count - 1_097) <= 1 && voice.voicing.frameDuration == 0.01, "\(voicing.count) frames")
    let segments = final.bestTranscription.segments
    let inWords = Set(
      segments.flatMap { segment in
        let first = Int((segment.timestamp * 100).rounded(.up))
        return first..<max(first, Int((segment.timestamp + segment.duration) * 100))
      })
    let spoken = voicing.indices.filter(inWords.contains).map { voicing[$0] }
    let between = voicing.indices.filter { !inWords.contains($0) }.map { voicing[$0] }
    let mean = { (values: [Double]) in values.reduce(0, +) / Double(max(values.count, 1)) }
    #expect(mean(spoken) > mean(between) + 0.2, "voicing in words \(mean(spoken)), between \(mean(between))")
    #expect(
      segments.allSatisfy { segment in
        segment.voiceAnalytics.map {
          abs(Double($0.pitch.acousticFeatureValuePerFrame.count) - segment.duration * 100) <= 2
        }
          ?? (segment.duration < 0.01)
      }, "each word's analytics cover the word")
    #expect(task.state == .completed)
    #expect(task.error == nil)
  }

  @Test("a request fed 16-bit integer buffers, read from a file as tutorials do, transcribes the same")
  func int16Request() async throws {
    let file = try AVAudioFile(forReading: Fixtures.jfk, commonFormat: .pcmFormatInt16, interleaved: false)
    let request = SFSpeechAudioBufferRecognitionRequest()
    request.addsPunctuation = true
    let log = RecognitionLog()
    _ = try recognizer().recognitionTask(with: request) { result, error in log.add(result, error) }
    while file.framePosition < file.length {
      let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 8_000))
      try file.read(into: buffer)
      #expect(buffer.int16ChannelData != nil)
      request.append(buffer)
    }
    request.endAudio()
    let final = try await log.final(within: 60)
    #expect(
      WordErrorRate(reference: Fixtures.jfkText, hypothesis: final.bestTranscription.formattedString).edits == 0,
      "\(final.bestTranscription.formattedString)")
  }

  @Test("finish() stops taking audio and delivers the final result for what was appended")
  func finishing() async throws {
    let speech = try AudioFile(forReading: Fixtures.jfk).read()
    let request = SFSpeechAudioBufferRecognitionRequest()
    request.shouldReportPartialResults = false
    let log = RecognitionLog()
    let task = try recognizer().recognitionTask(with: request) { result, error in log.add(result, error) }
    request.append(speech)
    task.finish()
    request.append(speech)  // after finish(): ignored
    let final = try await log.final(within: 60)
    let text = final.bestTranscription.formattedString
    #expect(WordErrorRate(reference: Fixtures.jfkText, hypothesis: text).edits == 0, "\(text)")
    #expect(log.partials == 0, "no partial results when they are not asked for")
    #expect(task.state == .completed && !task.isCancelled)
  }

  @Test("cancel() ends a task with the cancellation error and no final result")
  func cancelling() async throws {
    let speech = try AudioFile(forReading: Fixtures.jfk).read()
    let request = SFSpeechAudioBufferRecognitionRequest()
    let log = RecognitionLog()
    let task = try recognizer().recognitionTask(with: request) { result, error in log.add(result, error) }
    request.append(speech.frames(0..<32_000))
    task.cancel()
    let error = try await log.error(within: 30)
    #expect((error as? SFSpeechError)?.code == .canceled, "\(error)")
    #expect(task.isCancelled)
    #expect(task.state == .completed)
    #expect(log.finals == 0)
  }

  @Test("a file request's final result carries the file's voice analytics, as a buffer request's does")
  func fileVoiceAnalytics() async throws {
    let log = RecognitionLog()
    try recognizer().recognitionTask(with: SFSpeechURLRecognitionRequest(url: Fixtures.jfk)) { log.add($0, $1) }
    let fromFile = try #require(try await log.final(within: 60).speechRecognitionMetadata?.voiceAnalytics)
    let request = SFSpeechAudioBufferRecognitionRequest()
    let live = RecognitionLog()
    _ = try recognizer().recognitionTask(with: request) { live.add($0, $1) }
    request.append(try AudioFile(forReading: Fixtures.jfk).read())
    request.endAudio()
    let appended = try #require(try await live.final(within: 60).speechRecognitionMetadata?.voiceAnalytics)
    let voicing = fromFile.voicing.acousticFeatureValuePerFrame
    #expect(voicing.count == 1_097 && voicing == appended.voicing.acousticFeatureValuePerFrame)
    #expect(fromFile.pitch.acousticFeatureValuePerFrame == appended.pitch.acousticFeatureValuePerFrame)
  }

  @Test("the delegate form reports speech, hypotheses, the end of the audio and the final result, in order")
  func taskDelegate() async throws {
    let delegate = TaskEvents()
    let request = SFSpeechURLRecognitionRequest(url: Fixtures.jfk)
    let task = try recognizer().recognitionTask(with: request, delegate: delegate)
    let deadline = Date().addingTimeInterval(60)
    while !delegate.events.contains("finished true"), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    let events = delegate.events
    #expect(events.first == "speech", "\(events)")
    #expect(events.contains("hypothesis"))
    #expect(events.suffix(3) == ["read all audio", "final", "finished true"], "\(events)")
    #expect(task.state == .completed)
  }

  @Test("the recognizer is unavailable without its model, and the delegate hears when it is installed")
  func availability() async throws {
    let folder = Fixtures.temporaryFolder("recognizer-models")
    defer { try? FileManager.default.removeItem(at: folder) }
    let directory = ModelDirectory(url: folder)
    let recognizer = try #require(
      SFSpeechRecognizer(locale: Locale(identifier: "en-US"), model: .default, modelDirectory: directory))
    recognizer.queue = OperationQueue()
    #expect(!recognizer.isAvailable)
    let log = RecognitionLog()
    recognizer.recognitionTask(with: SFSpeechURLRecognitionRequest(url: Fixtures.jfk)) { log.add($0, $1) }
    let missing = try await log.error(within: 10)
    #expect(missing.localizedDescription.contains("not installed"), "\(missing.localizedDescription)")

    let listener = AvailabilityListener()
    recognizer.delegate = listener
    try FileManager.default.createSymbolicLink(
      at: directory.file(for: .default), withDestinationURL: ModelDirectory.current.file(for: .default))
    let deadline = Date().addingTimeInterval(10)
    while listener.changes.isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
    #expect(listener.changes == [true])
    #expect(recognizer.isAvailable)
    #expect(recognizer.supportsOnDeviceRecognition)
  }
}

/// What a result handler heard, collected across threads.
final class RecognitionLog: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [SFSpeechRecognitionResult] = []
  private var errors: [any Error] = []

  func add(_ result: SFSpeechRecognitionResult?, _ error: (any Error)?) {
    lock.withLock {
      if let result { results.append(result) }
      if let error { errors.append(error) }
    }
  }

  var partials: Int { lock.withLock { results.filter { !$0.isFinal }.count } }
  var finals: Int { lock.withLock { results.filter(\.isFinal).count } }

  func final(within seconds: Double) async throws -> SFSpeechRecognitionResult {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let final = lock.withLock({ results.first(where: \.isFinal) }) { return final }
      if let error = lock.withLock({ errors.first }) { throw error }
      try await Task.sleep(for: .milliseconds(20))
    }
    throw SFSpeechError(.invalidRequest)
  }

  func error(within seconds: Double) async throws -> any Error {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let error = lock.withLock({ errors.first }) { return error }
      try await Task.sleep(for: .milliseconds(20))
    }
    throw SFSpeechError(.invalidRequest)
  }
}

/// A task delegate that writes down what it hears.
final class TaskEvents: SFSpeechRecognitionTaskDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private var log: [String] = []
  var events: [String] { lock.withLock { log } }
  private func note(_ event: String) { lock.withLock { log.append(event) } }

  func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask) { note("speech") }
  func speechRecognitionTask(
    _ task: SFSpeechRecognitionTask, didHypothesizeTranscription transcription: SFTranscription
  ) {
    lock.withLock { if log.last != "hypothesis" { log.append("hypothesis") } }
  }
  func speechRecognitionTaskFinishedReadingAudio(_ task: SFSpeechRecognitionTask) { note("read all audio") }
  func speechRecognitionTask(
    _ task: SFSpeechRecognitionTask, didFinishRecognition recognitionResult: SFSpeechRecognitionResult
  ) { note("final") }
  func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {
    note("finished \(successfully)")
  }
}

/// A recognizer delegate that records availability changes.
final class AvailabilityListener: SFSpeechRecognizerDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private var log: [Bool] = []
  var changes: [Bool] { lock.withLock { log } }

  func speechRecognizer(_ speechRecognizer: SFSpeechRecognizer, availabilityDidChange available: Bool) {
    lock.withLock { log.append(available) }
  }
}
