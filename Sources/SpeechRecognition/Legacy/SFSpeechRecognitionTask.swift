import AudioIO
import Foundation
import Synchronization

/// A recognition in progress, made by ``SFSpeechRecognizer/recognitionTask(with:resultHandler:)``
/// or its delegate form; it delivers results until it completes, and can be finished early or
/// cancelled.
///
/// Results and delegate calls arrive on the recognizer's `queue`. A live task also completes
/// when its request is released without ``SFSpeechAudioBufferRecognitionRequest/endAudio()``,
/// so a recognition an app forgets does not run on.
public final class SFSpeechRecognitionTask: @unchecked Sendable {
  private struct Status {
    var state = SFSpeechRecognitionTaskState.starting
    var error: (any Error)?
    var analyzer: SpeechAnalyzer?
    var cancelled = false
  }
  private let status = Mutex(Status())
  private weak var request: SFSpeechRecognitionRequest?

  init(request: SFSpeechRecognitionRequest) {
    self.request = request
  }

  /// Where the task is in its life.
  public var state: SFSpeechRecognitionTaskState { status.withLock { $0.state } }
  /// Whether the task was told to finish and is producing its last results.
  public var isFinishing: Bool { state == .finishing }
  /// Whether the task was cancelled.
  public var isCancelled: Bool { status.withLock { $0.cancelled } }
  /// Why the task failed, once it has.
  public var error: (any Error)? { status.withLock { $0.error } }

  /// Stops taking audio and finishes recognizing what it has, then delivers the final result.
  public func finish() {
    status.withLock { if $0.state == .starting || $0.state == .running { $0.state = .finishing } }
    (request as? SFSpeechAudioBufferRecognitionRequest)?.endAudio()
  }

  /// Stops at once: no final result, the handler hears a cancellation error.
  public func cancel() {
    let analyzer = status.withLock { status -> SpeechAnalyzer? in
      guard status.state != .completed else { return nil }
      status.cancelled = true
      status.state = .canceling
      return status.analyzer
    }
    (request as? SFSpeechAudioBufferRecognitionRequest)?.endAudio()
    if let analyzer { Task { await analyzer.cancelAndFinishNow() } }
  }

  /// What the task tells its client, in order.
  enum Event {
    case detectedSpeech
    case partial(SFSpeechRecognitionResult)
    case finishedReadingAudio
    case audioProcessed(TimeInterval)
    case final(SFSpeechRecognitionResult)
    case failed(any Error)
    case cancelled
  }

  /// Runs the recognition with `transcriber`, reporting each event through `report` in order.
  func run(
    transcriber: SpeechTranscriber, input: Input, partialResults: Bool, punctuated: Bool,
    report: @escaping @Sendable (Event) -> Void
  ) {
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    status.withLock { $0.analyzer = analyzer }
    Task.detached { [self] in
      var words: [(text: String, start: Double, duration: Double, confidence: Float)] = []
      var volatile: [(text: String, start: Double, duration: Double, confidence: Float)] = []
      do {
        let voice: VoiceAnalyticsMeter
        let reading: Task<Void, any Error>
        switch input {
        case .file(let url):
          voice = VoiceAnalyticsMeter()
          reading = Task {
            let file = try AudioFile(forReading: url)
            try await analyzer.start(inputAudioFile: file, finishAfterFile: true)
            // Measured while the analysis runs, a minute at a time; decoding again is quick
            // beside transcription.
            let reader = try AudioFileReader(file: file)
            while let chunk = try reader.read(frames: 960_000) { voice.append(chunk) }
          }
        case .live(let stream, let meter):
          voice = meter
          reading = Task {
            try await analyzer.start(inputSequence: stream)
            try await analyzer.finalizeAndFinishThroughEndOfInput()
          }
        }
        self.status.withLock { if $0.state == .starting { $0.state = .running } }
        for try await result in transcriber.results {
          let heard = Self.words(in: result)
          if words.isEmpty, volatile.isEmpty, !heard.isEmpty { report(.detectedSpeech) }
          if result.isFinal {
            words += heard
            volatile = []
            report(.audioProcessed(result.range.end.seconds))
          } else {
            volatile = heard.map { ($0.text, $0.start, $0.duration, 0) }
          }
          if partialResults, !(words + volatile).isEmpty {
            report(
              .partial(
                SFSpeechRecognitionResult(
                  bestTranscription: .joining(words + volatile, punctuated: punctuated), isFinal: false)))
          }
        }
        try await reading.value
        report(.finishedReadingAudio)
        if isCancelled { return finish(.cancelled, report: report) }
        guard !words.isEmpty else { throw SFSpeechError(.noSpeechDetected) }
        let transcription = SFTranscription.joining(words, punctuated: punctuated, voice: voice)
        finish(
          .final(SFSpeechRecognitionResult(bestTranscription: transcription, isFinal: true, voice: voice)),
          report: report)
      } catch {
        finish(isCancelled ? .cancelled : .failed(error), report: report)
      }
    }
  }

  private func finish(_ event: Event, report: @Sendable (Event) -> Void) {
    status.withLock {
      $0.state = .completed
      $0.analyzer = nil
      if case .failed(let error) = event { $0.error = error }
      if case .cancelled = event { $0.error = SFSpeechError(.canceled) }
    }
    report(event)
  }

  /// Where a task's audio comes from.
  enum Input: Sendable {
    case file(URL)
    case live(AsyncStream<AnalyzerInput>, voice: VoiceAnalyticsMeter)
  }

  /// The words of `result`, from its timed runs.
  private static func words(in result: SpeechTranscriber.Result) -> [(
    text: String, start: Double, duration: Double, confidence: Float
  )] {
    var words: [(text: String, start: Double, duration: Double, confidence: Float)] = []
    for run in result.text.runs {
      let text = String(result.text[run.range].characters).trimmingCharacters(in: .whitespacesAndNewlines)
      guard !text.isEmpty else { continue }
      let range = run.audioTimeRange ?? result.range
      words.append((text, range.start.seconds, range.duration.seconds, Float(run.transcriptionConfidence ?? 0)))
    }
    return words
  }
}
