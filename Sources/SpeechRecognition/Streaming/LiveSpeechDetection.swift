/// Live voice-activity results for one ``SpeechDetector``: alternating stretches of silence and
/// speech, each published once it ends.
actor LiveSpeechDetection: LiveModuleAnalysis {
  /// Speech must last 0.1 s to count; silence must last 0.3 s to end it.
  static func configuration(for sensitivity: SpeechDetector.SensitivityLevel) -> SpeechActivityTracker.Configuration {
    SpeechActivityTracker.Configuration(
      threshold: sensitivity.threshold, releaseThreshold: max(sensitivity.threshold - 0.15, 0.05),
      minimumSpeech: LiveTranscription.Policy.seconds(0.1), minimumSilence: LiveTranscription.Policy.seconds(0.3))
  }

  private var tracker: SpeechActivityTracker
  private let continuation: AsyncThrowingStream<SpeechDetector.Result, any Error>.Continuation?
  /// Where the stretch not yet published begins.
  private var stretchStart = 0
  /// The end of the input so far.
  private var end = 0
  private var isDone = false
  /// Whether any audio has arrived: a detector added while the input runs starts where its first
  /// audio does, not at the start of the input.
  private var hasInput = false

  /// Creates the analysis; results go to `continuation`, or nowhere when it is nil.
  init(
    sensitivity: SpeechDetector.SensitivityLevel,
    continuation: AsyncThrowingStream<SpeechDetector.Result, any Error>.Continuation?
  ) {
    tracker = SpeechActivityTracker(configuration: Self.configuration(for: sensitivity))
    self.continuation = continuation
  }

  func append(_ audio: LiveAudio) {
    guard !isDone, !audio.samples.isEmpty else { return }
    if !hasInput {
      hasInput = true
      stretchStart = audio.start
      end = audio.start
    }
    if audio.start > end, let transition = tracker.interrupt(at: end) {
      // A gap in the input is silence.
      handle(transition)
    }
    for index in audio.speechProbabilities.indices {
      let window = audio.window(index)
      guard !window.isEmpty else { break }
      if let transition = tracker.observe(probability: audio.speechProbabilities[index], window: window) {
        handle(transition)
      }
    }
    end = audio.end
  }

  /// The stretch in progress, which is published when it ends.
  var unsettledStart: Int? { !isDone && end > stretchStart ? stretchStart : nil }

  func finalize(through position: Int?) {
    // Stretches are published as they end; the one in progress has not ended.
  }

  func finish() {
    guard !isDone else { return }
    isDone = true
    if case .speechEnded(let at) = tracker.interrupt(at: end) { publish(until: at, speech: true) }
    publish(until: end, speech: false)
  }

  func cancel() {
    isDone = true
  }

  private func handle(_ transition: SpeechActivityTracker.Transition) {
    switch transition {
    case .speechStarted(let at): publish(until: at, speech: false)
    case .speechEnded(let at): publish(until: at, speech: true)
    }
  }

  /// Publishes the stretch from `stretchStart` to `position`.
  private func publish(until position: Int, speech: Bool) {
    guard position > stretchStart else { return }
    let range = LiveAudio.timeRange(stretchStart..<position)
    continuation?.yield(SpeechDetector.Result(range: range, resultsFinalizationTime: range.end, speechDetected: speech))
    stretchStart = position
  }
}
