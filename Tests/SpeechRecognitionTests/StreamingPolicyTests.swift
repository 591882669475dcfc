import AudioIO
import Foundation
import TestSupport
import Testing
import VoiceNotes

@testable import SpeechRecognition

/// The pieces of the live path on their own: speech tracking, input placement, the utterance cap.
@Suite("Streaming policy", .serialized)
struct StreamingPolicyTests {
  let window = VoiceActivityDetector.windowSize

  @Test("speech starts after enough speech-like windows and ends after enough silence")
  func tracker() {
    var tracker = SpeechActivityTracker(
      configuration: .init(threshold: 0.5, releaseThreshold: 0.35, minimumSpeech: 3 * 512, minimumSilence: 4 * 512))
    let probabilities: [Float] = [0.1, 0.9, 0.2, 0.8, 0.9, 0.7, 0.6, 0.4, 0.1, 0.2, 0.9, 0.1, 0.1, 0.1, 0.1, 0.2]
    var transitions: [SpeechActivityTracker.Transition] = []
    for (index, probability) in probabilities.enumerated() {
      if let transition = tracker.observe(probability: probability, window: (index * 512)..<((index + 1) * 512)) {
        transitions.append(transition)
      }
    }
    // A single speech-like window (1) is a flicker; three in a row (3-5) start speech at the first.
    // 0.4 lies between the thresholds: still speech. The silence from 8 is broken by 10; the run
    // from 11 lasts four windows, and speech ends where it began.
    #expect(transitions == [.speechStarted(at: 3 * 512), .speechEnded(at: 11 * 512)])
    #expect(!tracker.isSpeaking)
    _ = tracker.observe(probability: 0.9, window: (16 * 512)..<(17 * 512))
    #expect(tracker.candidateStart == 16 * 512)
    #expect(tracker.interrupt(at: 17 * 512) == nil)
  }

  @Test("input buffers are converted and laid end to end; start times leave gaps or drop repeats")
  func timeline() throws {
    let timeline = AnalyzerInputTimeline()
    let mono = AudioBuffer(format: .speechAnalysis, samples: [Float](repeating: 0.5, count: 1600))
    #expect(try timeline.place(AnalyzerInput(buffer: mono)) == [.audio(mono.samples)])
    // A buffer that names the time where the last one ended follows it directly.
    #expect(
      try timeline.place(AnalyzerInput(buffer: mono, bufferStartTime: CMTime(value: 1, timescale: 10))).count == 1)
    #expect(timeline.position == 3200)
    // One that starts 0.3 s later leaves 0.3 s of silence.
    let late = try timeline.place(AnalyzerInput(buffer: mono, bufferStartTime: CMTime(value: 5, timescale: 10)))
    #expect(late.first == .silence(4800))
    #expect(timeline.position == 9600)
    // One that starts 50 ms before the end of the last gives only its new part.
    let early = try timeline.place(AnalyzerInput(buffer: mono, bufferStartTime: CMTime(value: 55, timescale: 100)))
    #expect(early == [.audio([Float](repeating: 0.5, count: 800))])
    // Another format goes through a converter: 48 kHz stereo becomes a third as many mono frames.
    let stereo = AudioBuffer(
      format: AudioFormat(sampleRate: 48_000, channelCount: 2), samples: [Float](repeating: 0.25, count: 48_000 * 2))
    var converted = 0
    for case .audio(let samples) in try timeline.place(AnalyzerInput(buffer: stereo)) + timeline.finish() {
      converted += samples.count
    }
    #expect(abs(converted - 16_000) <= 2)
    #expect(abs(timeline.position - 26_400) <= 2)
  }

  @Test("an utterance without pauses is finalised at its quietest moments, every few seconds, losing no words")
  func utteranceCap() async throws {
    let models = ModelDirectory(url: Fixtures.models)
    let context = try WhisperContext.shared(modelAt: models.file(for: .base).path)
    let detector = try VoiceActivityDetector(
      modelPath: models.file(named: VoiceActivityDetector.modelFileName).path)
    // Pauses of up to 2 s do not end an utterance; none may last more than 5 s.
    var policy = LiveTranscription.Policy.standard
    policy.activity.minimumSilence = LiveTranscription.Policy.seconds(2)
    policy.longestUtterance = LiveTranscription.Policy.seconds(5)
    policy.commitsStableWords = false
    let (results, continuation) = AsyncThrowingStream.makeStream(of: SpeechTranscriber.Result.self)
    let live = LiveTranscription(
      context: context, language: "en", reportsVolatileResults: false, attributes: [], policy: policy,
      continuation: continuation, shouldAbort: { false }, onLanguage: { _ in })
    var feed = LiveAnalysis(detector: detector, modules: AnalyzerModuleSet(liveAnalyses: [live]))
    let audio = try AudioFile(forReading: Fixtures.jfk).read(format: .speechAnalysis)
    for start in stride(from: 0, to: audio.frameLength, by: 1600) {
      try await feed.consume(AnalyzerInput(buffer: audio.frames(start..<(start + 1600))))
    }
    _ = try await feed.finishInput()
    try await live.finish()
    continuation.finish()
    var finals: [SpeechTranscriber.Result] = []
    for try await result in results { finals.append(result) }

    print(finals.map { "\($0.range): \($0.plainText)" }.joined(separator: "\n"))
    #expect(finals.count >= 3)
    for final in finals { #expect(final.range.duration.seconds <= 5.001, "\(final.range)") }
    for (previous, next) in zip(finals, finals.dropFirst()) {
      #expect(next.range.start == previous.range.end, "a cut leaves no gap")
    }
    let rate = WordErrorRate(reference: Fixtures.jfkText, hypothesis: finals.map(\.plainText).joined(separator: " "))
    #expect(rate.rate <= 0.1, "WER \(rate)")
  }

  /// Decoded words from `text`, one a second.
  func words(_ text: String) -> [LocalAgreement.Word] {
    text.split(separator: " ").enumerated().map { index, word in
      let token = WhisperSegment.Token(bytes: Array(" \(word)".utf8), start: 0, end: 0, probability: 1)
      return LocalAgreement.Word(token: token, end: (index + 1) * 16_000)
    }
  }

  @Test("words are committed once three decodes, the oldest long enough, agree on them; never the newest's last")
  func localAgreement() {
    var rule = LocalAgreement(decodes: 3, shortestDecode: 32_000)
    // Two short decodes agree, but the first heard only a second: nothing yet.
    #expect(rule.agreement(with: words("how do you"), length: 16_000) == (0, 0))
    #expect(rule.agreement(with: words("how do you marry"), length: 32_000) == (0, 0))
    // The third reads the start differently: the agreement stops there.
    #expect(rule.agreement(with: words("had he married a"), length: 40_000) == (0, 0))
    #expect(rule.agreement(with: words("had he married a more"), length: 48_000) == (0, 0))
    // Three in a row (punctuation and capitals aside) agree on "had he married a"; "more" is the
    // newest's last word, left for the next decode.
    #expect(rule.agreement(with: words("Had he married, a more"), length: 56_000) == (0, 4))
    rule.commit(4)
    #expect(rule.committed.map(\.key) == ["had", "he", "married", "a"])
    // The next decode reads a committed word differently; its new words still line up after them.
    #expect(rule.agreement(with: words("had he marry a more amiable woman"), length: 64_000) == (4, 1))
    rule.commit(1)
    #expect(rule.committed.map(\.key) == ["had", "he", "married", "a", "more"])
  }

  @Test("committed words are found at the start of a decode by edit distance")
  func committedPrefix() {
    #expect(LocalAgreement.end(of: [], in: ["a", "b"]) == 0)
    #expect(LocalAgreement.end(of: ["and", "mr", "john"], in: ["and", "mister", "john", "dashwood"]) == 3)
    // A dropped word and an added one.
    #expect(LocalAgreement.end(of: ["a", "b", "c"], in: ["a", "c", "d"]) == 2)
    #expect(LocalAgreement.end(of: ["a", "b"], in: ["a", "x", "b", "c"]) == 3)
    #expect(LocalAgreement.end(of: ["to", "be"], in: ["to", "be", "to", "be", "rather"]) == 2)
    #expect(LocalAgreement.end(of: ["a", "b"], in: []) == 0)
  }

  @Test("a decode that goes round in a loop is told from speech that repeats a word")
  func loops() {
    let loop =
      "had he married a more amiable woman had he married a more amiable woman had he married a more amiable woman"
    #expect(LiveTranscription.repeatsItself(loop.split(separator: " ").map(String.init)))
    #expect(LiveTranscription.repeatsItself("i'm sorry i'm sorry i'm sorry".split(separator: " ").map(String.init)))
    #expect(!LiveTranscription.repeatsItself("no no no that is not it".split(separator: " ").map(String.init)))
    #expect(
      !LiveTranscription.repeatsItself(
        "ask not what your country can do for you".split(separator: " ").map(String.init)))
    #expect(!LiveTranscription.repeatsItself([]))
  }
}
