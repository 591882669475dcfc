import AudioIO

/// The analyzer's side of live input: turns each ``AnalyzerInput`` into 16 kHz mono audio on one
/// timeline, judges every 32 ms window with the voice-activity model once for all modules, and
/// hands the audio to the ``LiveModuleAnalysis`` of each module running at that moment (modules
/// may be added and removed while the input arrives, see ``SpeechAnalyzer/setModules(_:)``).
///
/// Owned by the task that reads the input sequence; never shared.
struct LiveAnalysis {
  /// The most silence from a gap in the input that is fed to the modules as zeros; the rest is
  /// skipped. A second is more than any pause the modules wait for.
  static let longestFedSilence = LiveAudio.sampleRate

  private let timeline = AnalyzerInputTimeline()
  private let detector: VoiceActivityDetector
  private let modules: AnalyzerModuleSet
  /// Samples waiting for a whole voice-activity window.
  private var held: [Float] = []
  /// Where `held` starts on the timeline.
  private var heldStart = 0

  /// Creates the feed for the modules of `modules`, judging speech with `detector`.
  init(detector: VoiceActivityDetector, modules: AnalyzerModuleSet) {
    self.detector = detector
    self.modules = modules
  }

  /// Converts `input`, places it on the timeline and hands every whole window to the modules.
  mutating func consume(_ input: AnalyzerInput) async throws {
    for piece in try timeline.place(input) {
      switch piece {
      case .audio(let samples):
        try await push(samples)
      case .silence(let count):
        let fed = min(count, Self.longestFedSilence)
        try await push([Float](repeating: 0, count: fed))
        if count > fed {
          // Skip the rest: the modules see the next audio start later than the last ended.
          heldStart += held.count + count - fed
          held.removeAll()
          await detector.reset()
        }
      }
    }
  }

  /// Hands the modules everything still held (the converter's tail, a last partial window).
  ///
  /// - Returns: the time just after the last sample of the input.
  mutating func finishInput() async throws -> CMTime {
    for case .audio(let samples) in timeline.finish() { try await push(samples) }
    if !held.isEmpty { try await hand(held) }
    held.removeAll()
    return LiveAudio.time(heldStart)
  }

  private mutating func push(_ samples: [Float]) async throws {
    held += samples
    let whole = held.count / VoiceActivityDetector.windowSize * VoiceActivityDetector.windowSize
    guard whole > 0 else { return }
    try await hand(Array(held[..<whole]))
    held.removeFirst(whole)
  }

  /// Judges `samples` (the start of `held`) and gives them to every module.
  private mutating func hand(_ samples: [Float]) async throws {
    let probabilities = try await detector.speechProbabilities(samples)
    let audio = LiveAudio(start: heldStart, samples: samples, speechProbabilities: probabilities)
    for module in modules.liveAnalyses { await module.append(audio) }
    heldStart += samples.count
  }
}
