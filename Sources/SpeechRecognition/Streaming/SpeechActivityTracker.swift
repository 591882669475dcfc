/// Turns voice-activity probabilities, window by window, into the moments speech starts and
/// ends, with hysteresis so that a flicker of noise or a breath between words does not count.
///
/// Speech starts once windows at or above ``Configuration/threshold`` have lasted
/// ``Configuration/minimumSpeech`` samples (reported at the first of them); it ends once windows
/// below ``Configuration/releaseThreshold`` have lasted ``Configuration/minimumSilence`` samples
/// (reported at the first silent one). Positions are samples on the analyzer's timeline.
struct SpeechActivityTracker: Sendable {
  /// Thresholds and durations, in samples.
  struct Configuration: Sendable, Equatable {
    /// A window at or above this probability is speech.
    var threshold: Float
    /// While speaking, a window below this probability is silence.
    var releaseThreshold: Float
    /// How long speech must last before it is reported.
    var minimumSpeech: Int
    /// How long silence must last before the end of speech is reported.
    var minimumSilence: Int
  }

  /// A change between speech and silence.
  enum Transition: Sendable, Equatable {
    /// Speech began at this position.
    case speechStarted(at: Int)
    /// Speech ended at this position (where the silence began).
    case speechEnded(at: Int)
  }

  /// The thresholds and durations in use.
  let configuration: Configuration
  /// Whether speech is in progress.
  private(set) var isSpeaking = false
  /// While silent: where a run of speech-like windows began, not yet long enough to count.
  private(set) var candidateStart: Int?
  /// While speaking: where the current run of silent windows began.
  private var silenceStart: Int?

  /// Creates a tracker that starts in silence.
  init(configuration: Configuration) {
    self.configuration = configuration
  }

  /// Judges the window at `window` with speech probability `probability`.
  mutating func observe(probability: Float, window: Range<Int>) -> Transition? {
    if isSpeaking {
      if probability < configuration.releaseThreshold {
        let start = silenceStart ?? window.lowerBound
        silenceStart = start
        if window.upperBound - start >= configuration.minimumSilence {
          isSpeaking = false
          silenceStart = nil
          return .speechEnded(at: start)
        }
      } else if probability >= configuration.threshold {
        silenceStart = nil
      }
      return nil
    }
    guard probability >= configuration.threshold else {
      candidateStart = nil
      return nil
    }
    let start = candidateStart ?? window.lowerBound
    candidateStart = start
    guard window.upperBound - start >= configuration.minimumSpeech else { return nil }
    isSpeaking = true
    candidateStart = nil
    silenceStart = nil
    return .speechStarted(at: start)
  }

  /// The input broke off at `position` (a gap, or its end): speech in progress ends there, or
  /// where its trailing silence began.
  mutating func interrupt(at position: Int) -> Transition? {
    candidateStart = nil
    guard isSpeaking else { return nil }
    isSpeaking = false
    defer { silenceStart = nil }
    return .speechEnded(at: min(silenceStart ?? position, position))
  }
}
