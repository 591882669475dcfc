import AudioIO
import ModelSupport

/// Live speech-to-text for one ``SpeechTranscriber``: splits the input into utterances at pauses
/// and decodes them with Whisper, publishing volatile results while an utterance is spoken and a
/// final result once it ends.
///
/// - The audio since the last final result is kept. Voice activity (judged by the analyzer, see
///   ``LiveAnalysis``) opens an utterance a moment before speech starts; a pause of
///   ``Policy/pause`` closes it a moment after speech ends.
/// - While an utterance is open and the engine is idle, each ``Policy/volatileInterval`` of new
///   audio brings a quick decode of the whole utterance so far: a volatile result whose range is
///   exactly the audio decoded. When the engine is busy, volatile updates are skipped, so decoding
///   never falls behind.
/// - A closed utterance is always decoded again, carefully, into a final result for its range;
///   then its audio is dropped. Finals are decoded in order, before any volatile update, and a
///   volatile decode still running when an utterance closes is abandoned for the final.
/// - An utterance that reaches ``Policy/longestUtterance`` is finalised at its quietest point, so
///   memory and latency stay bounded.
actor LiveTranscription: LiveModuleAnalysis {
  /// When utterances start and end, and how often volatile results are decoded; sample counts.
  struct Policy: Sendable, Equatable {
    /// How speech and pauses are recognised; `minimumSilence` is the pause that ends an utterance.
    var activity: SpeechActivityTracker.Configuration
    /// Audio kept before the detected start of speech, so a soft first sound is not clipped.
    var preRoll: Int
    /// Audio kept after the detected end of speech, so a fading last sound is not clipped.
    var trailingPad: Int
    /// New audio needed before the next volatile decode.
    var volatileInterval: Int
    /// The longest utterance before it is finalised at its quietest point.
    var longestUtterance: Int

    /// A pause of 0.6 s ends an utterance; volatile text every half second; utterances up to 20 s.
    static let standard = Policy(
      activity: .init(
        threshold: 0.5, releaseThreshold: 0.35, minimumSpeech: seconds(0.1), minimumSilence: seconds(0.6)),
      preRoll: seconds(0.3), trailingPad: seconds(0.25), volatileInterval: seconds(0.5),
      longestUtterance: seconds(20))

    /// Like ``standard`` but a pause of 0.4 s ends an utterance (`.frequentFinalization`).
    static let frequent: Policy = {
      var policy = standard
      policy.activity.minimumSilence = seconds(0.4)
      return policy
    }()

    /// A duration in samples.
    static func seconds(_ seconds: Double) -> Int { Int(seconds * Double(LiveAudio.sampleRate)) }
  }

  /// A decode to run: an utterance so far (volatile) or a whole utterance (final).
  private struct Job: Sendable {
    var isFinal: Bool
    var range: Range<Int>
    var samples: [Float]
  }

  private let context: WhisperContext
  private let language: String?
  private let reportsVolatileResults: Bool
  private let attributes: Set<SpeechTranscriber.ResultAttributeOption>
  /// The transcriber's custom language model, applied to every decode.
  private let steering: LanguageModelSteering?
  private let policy: Policy
  private let continuation: AsyncThrowingStream<SpeechTranscriber.Result, any Error>.Continuation
  private let shouldAbort: @Sendable () -> Bool
  private let onLanguage: @Sendable (String?) -> Void

  private var tracker: SpeechActivityTracker
  /// The audio since the last final result (or the last moments of silence).
  private var pending: [Float] = []
  /// Where `pending` starts on the timeline.
  private var pendingStart = 0
  /// Where the open utterance starts, or nil between utterances.
  private var utteranceStart: Int?
  /// Whether the open utterance holds a window judged speech (one split off at a pause may not).
  private var utteranceHasSpeech = false
  /// The end of the audio the last volatile decode of the open utterance covered.
  private var volatileEnd = 0
  /// Whether a volatile result is showing that no final has replaced yet.
  private var volatileShowing = false
  /// Closed utterances waiting for their final decode, in order.
  private var finals: [Job] = []
  /// The decode in progress and the flag that abandons it.
  private var running: (job: Job, abandon: CancellationFlag)?
  private var failure: (any Error)?
  private var isCancelled = false
  /// Callers of ``finish()`` and ``finalize(through:)`` waiting for the queued finals.
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Creates the live analysis of a transcriber that publishes into `continuation`.
  init(
    context: WhisperContext, language: String?, reportsVolatileResults: Bool,
    attributes: Set<SpeechTranscriber.ResultAttributeOption>, steering: LanguageModelSteering? = nil,
    policy: Policy = .standard,
    continuation: AsyncThrowingStream<SpeechTranscriber.Result, any Error>.Continuation,
    shouldAbort: @escaping @Sendable () -> Bool, onLanguage: @escaping @Sendable (String?) -> Void
  ) {
    self.context = context
    self.language = language
    self.reportsVolatileResults = reportsVolatileResults
    self.attributes = attributes
    self.steering = steering
    self.policy = policy
    self.continuation = continuation
    self.shouldAbort = shouldAbort
    self.onLanguage = onLanguage
    tracker = SpeechActivityTracker(configuration: policy.activity)
  }

  private var pendingEnd: Int { pendingStart + pending.count }

  // MARK: - Input

  func append(_ audio: LiveAudio) {
    guard !isCancelled, failure == nil, !audio.samples.isEmpty else { return }
    if audio.start > pendingEnd {
      // A gap in the input: whatever was being said ended where the audio stopped.
      if case .speechEnded(let end) = tracker.interrupt(at: pendingEnd) {
        close(at: min(end + policy.trailingPad, pendingEnd))
      }
      close(at: pendingEnd)
      pending.removeAll()
      pendingStart = audio.start
    }
    for index in audio.speechProbabilities.indices {
      let window = audio.window(index)
      guard !window.isEmpty else { break }
      pending += audio.samples[(window.lowerBound - audio.start)..<(window.upperBound - audio.start)]
      if audio.speechProbabilities[index] >= policy.activity.threshold { utteranceHasSpeech = true }
      switch tracker.observe(probability: audio.speechProbabilities[index], window: window) {
      case .speechStarted(let start):
        open(at: start)
      case .speechEnded(let end):
        close(at: min(end + policy.trailingPad, pendingEnd))
      case nil:
        break
      }
      if let start = utteranceStart {
        if pendingEnd - start >= policy.longestUtterance { split(at: quietestPoint(after: start)) }
      } else {
        dropSilence()
      }
    }
    schedule()
  }

  func finalize(through position: Int?) async throws {
    let position = min(position ?? pendingEnd, pendingEnd)
    if let start = utteranceStart, position > start { split(at: position) }
    schedule()
    await drained()
    if let failure { throw failure }
  }

  func finish() async throws {
    guard !isCancelled else { return }
    if failure == nil {
      // Nothing is lost: speech not yet long enough to count, and a word cut off mid-way, are
      // decoded with the rest.
      if utteranceStart == nil, let start = tracker.candidateStart { open(at: start) }
      _ = tracker.interrupt(at: pendingEnd)
      close(at: pendingEnd)
      schedule()
      await drained()
    }
    if let failure { throw failure }
  }

  func cancel() {
    isCancelled = true
    finals.removeAll()
    running?.abandon.set()
    resumeWaitersIfDrained()
  }

  // MARK: - Utterances

  private func open(at speechStart: Int) {
    guard utteranceStart == nil else { return }
    utteranceStart = max(pendingStart, speechStart - policy.preRoll)
    utteranceHasSpeech = true
    volatileEnd = max(pendingStart, speechStart)
  }

  /// Closes the open utterance at `end`: queues its final decode (unless it holds no speech, which
  /// Whisper would only invent words for) and drops its audio.
  private func close(at end: Int) {
    guard let start = utteranceStart else { return }
    utteranceStart = nil
    let end = min(max(end, start), pendingEnd)
    guard end > start else { return }
    if utteranceHasSpeech {
      finals.append(
        Job(isFinal: true, range: start..<end, samples: Array(pending[(start - pendingStart)..<(end - pendingStart)])))
    }
    pending.removeFirst(end - pendingStart)
    pendingStart = end
    // A final is waiting: a volatile decode still running would only delay it.
    if let running, !running.job.isFinal { running.abandon.set() }
  }

  /// Finalises the open utterance at `position` and carries on with a new one from there: speech
  /// is still going on.
  private func split(at position: Int) {
    close(at: position)
    utteranceStart = pendingStart
    utteranceHasSpeech = false
    volatileEnd = pendingStart
  }

  /// Between utterances, keeps only the moments of silence a next utterance might start with.
  private func dropSilence() {
    let keep = policy.preRoll + policy.activity.minimumSpeech + VoiceActivityDetector.windowSize
    // Drop in blocks of a second rather than window by window.
    guard pending.count > keep + LiveAudio.sampleRate else { return }
    let drop = pending.count - keep
    pending.removeFirst(drop)
    pendingStart += drop
  }

  /// The quietest moment in the second half of the open utterance (by the energy of 32 ms windows,
  /// averaged with their neighbours), where it can be cut with the least risk of splitting a word.
  private func quietestPoint(after start: Int) -> Int {
    let size = VoiceActivityDetector.windowSize
    let from = start + policy.longestUtterance / 2 - pendingStart
    let to = pending.count - policy.trailingPad
    guard to - from > 3 * size else { return pendingEnd }
    let energies = stride(from: from, to: to - size, by: size).map { offset in
      pending[offset..<(offset + size)].reduce(Float(0)) { $0 + $1 * $1 }
    }
    var best = 1
    var bestEnergy = Float.infinity
    for index in 1..<(energies.count - 1) {
      let energy = energies[index - 1] + energies[index] + energies[index + 1]
      if energy < bestEnergy {
        best = index
        bestEnergy = energy
      }
    }
    return pendingStart + from + best * size + size / 2
  }

  // MARK: - Decoding

  /// Starts the next decode when the engine is idle: a waiting final first, else a volatile
  /// update of the open utterance once enough new audio has come.
  private func schedule() {
    defer { resumeWaitersIfDrained() }
    guard running == nil, !isCancelled, failure == nil else { return }
    if !finals.isEmpty {
      launch(finals.removeFirst())
    } else if reportsVolatileResults, let start = utteranceStart, utteranceHasSpeech,
      pendingEnd - volatileEnd >= policy.volatileInterval
    {
      volatileEnd = pendingEnd
      launch(Job(isFinal: false, range: start..<pendingEnd, samples: Array(pending[(start - pendingStart)...])))
    }
  }

  private func launch(_ job: Job) {
    let abandon = CancellationFlag()
    running = (job, abandon)
    Task { await run(job, abandon: abandon) }
  }

  private func run(_ job: Job, abandon: CancellationFlag) async {
    let shouldAbort = shouldAbort
    do {
      let abort: @Sendable () -> Bool = { abandon.isSet || shouldAbort() }
      var decoded = try await context.decodeUtterance(job.samples, options: options(for: job), shouldAbort: abort)
      var words = SpeechTranscriber.Result.words(of: decoded.segments.flatMap(\.tokens))
      if job.isFinal, let steering, let promptGuard = steering.promptGuard {
        // Biasing with a prompt: the decode above had none; keep the prompted one's words only
        // where they bring in the model's words.
        let prompted = try await context.decodeUtterance(
          job.samples, options: options(for: job, prompted: true), shouldAbort: abort)
        let promptedWords = SpeechTranscriber.Result.words(of: prompted.segments.flatMap(\.tokens))
        words = promptGuard.merge(plain: [words], prompted: promptedWords)[0]
        decoded.language = decoded.language ?? prompted.language
      }
      try await publish(job, words: words)
      if job.isFinal { onLanguage(decoded.language) }
    } catch SpeechTranscriptionError.cancelled where !job.isFinal && !shouldAbort() {
      // A volatile decode abandoned for a final: there is nothing to show.
    } catch {
      if !isCancelled {
        failure = error
        continuation.finish(throwing: error)
      }
    }
    running = nil
    schedule()
  }

  /// Publishes what a decode of `job` found, rewritten by the custom language model if there is one.
  private func publish(_ job: Job, words: [WhisperSegment.Token]) async throws {
    guard !isCancelled else { return }
    let offset = Double(job.range.lowerBound) / Double(LiveAudio.sampleRate)
    let words = words.map { word in
      var word = word
      word.start += offset
      word.end += offset
      return word
    }
    let range = LiveAudio.timeRange(job.range)
    let finalization = job.isFinal ? range.end : range.start
    let result =
      if let steering {
        try await SpeechTranscriber.Result(
          words: words.map(TranscribedSegment.Word.init), range: range, resultsFinalizationTime: finalization,
          attributes: attributes, steering: steering)
      } else {
        SpeechTranscriber.Result(
          words: words, range: range, resultsFinalizationTime: finalization, attributes: attributes)
      }
    guard !isCancelled else { return }
    if job.isFinal {
      // An empty final still replaces the volatile text shown for its audio.
      guard !result.text.characters.isEmpty || volatileShowing else { return }
      volatileShowing = false
    } else {
      guard !result.text.characters.isEmpty else { return }
      volatileShowing = true
    }
    continuation.yield(result)
  }

  /// Greedy decoding in a window fitted to the utterance; volatile decodes also skip timestamps
  /// and the temperature fallback, finals keep them for accuracy.
  /// With a custom language model that biases with a prompt, a final is decoded without the prompt
  /// and, with `prompted`, again with it (volatile decodes go without).
  private func options(for job: Job, prompted: Bool = false) -> WhisperDecodingOptions {
    var options = WhisperDecodingOptions(
      language: language, threads: EngineHost.threadCount, beamSize: 1, voiceActivityModel: nil, initialPrompt: nil)
    options.audioContext = Self.audioContext(forSamples: job.samples.count)
    options.tokenTimestamps = attributes.contains(.audioTimeRange)
    options.suppressNonSpeechTokens = true
    if !job.isFinal {
      options.singleSegment = true
      options.temperatureFallback = false
      // Nobody says more than eight tokens a second: a bound on a decoder repeating itself.
      options.maximumTokens = 16 + 8 * job.samples.count / LiveAudio.sampleRate
    }
    steering?.apply(to: &options, isFinal: job.isFinal, prompted: prompted)
    return options
  }

  /// The encoder window for an utterance of `count` samples, in encoder frames (see
  /// ``WhisperDecodingOptions/fittedAudioContext(forSamples:sampleRate:)``; the half-second
  /// lead-in the decode adds is inside its spare second and a half).
  static func audioContext(forSamples count: Int) -> Int {
    WhisperDecodingOptions.fittedAudioContext(forSamples: count, sampleRate: Double(LiveAudio.sampleRate))
  }

  // MARK: - Waiting

  /// Whether every final queued so far is published (volatile decodes do not count: while
  /// someone speaks there is always another).
  private var isDrained: Bool {
    isCancelled || failure != nil || (finals.isEmpty && running?.job.isFinal != true)
  }

  /// Returns once every final queued so far is published.
  private func drained() async {
    guard !isDrained else { return }
    await withCheckedContinuation { waiters.append($0) }
  }

  private func resumeWaitersIfDrained() {
    guard isDrained else { return }
    let waiting = waiters
    waiters.removeAll()
    for waiter in waiting { waiter.resume() }
  }
}
