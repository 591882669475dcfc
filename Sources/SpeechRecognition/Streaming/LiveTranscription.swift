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
/// - Speech that goes on without a pause is made final as it becomes stable: the words three
///   consecutive volatile decodes agree on are published as a final result at once (see
///   ``LocalAgreement``), and the utterance is cut into pieces at short quiet moments once it is
///   a few seconds long, so decodes stay short. Without a custom language model only: its
///   commands are whole utterances.
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
    /// Whether words that consecutive volatile decodes agree on are made final at once.
    var commitsStableWords: Bool
    /// How many consecutive volatile decodes must agree on a word to make it final.
    var agreeingDecodes: Int
    /// The audio the oldest of the agreeing decodes must have heard.
    var shortestStableDecode: Int
    /// How long an utterance runs before a short quiet moment (``shortestGap``) ends it too.
    var shortestPiece: Int
    /// The shortest quiet moment that ends an utterance of ``shortestPiece`` or more.
    var shortestGap: Int
    /// The smallest encoder window of a volatile decode when stable words are committed, in
    /// encoder frames (50 a second): smaller than a final's, so volatile text comes sooner.
    var volatileWindow: Int

    /// A pause of 0.6 s ends an utterance, or one of 0.12 s after 3 s of speech; volatile text
    /// every 0.4 s; stable words final once decodes of 2 s agree; utterances up to 20 s.
    static let standard = Policy(
      activity: .init(
        threshold: 0.5, releaseThreshold: 0.35, minimumSpeech: seconds(0.1), minimumSilence: seconds(0.6)),
      preRoll: seconds(0.3), trailingPad: seconds(0.25), volatileInterval: seconds(0.4),
      longestUtterance: seconds(20), commitsStableWords: true, agreeingDecodes: 3, shortestStableDecode: seconds(2),
      shortestPiece: seconds(3), shortestGap: seconds(0.12), volatileWindow: 512)

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
    /// The words of this audio already published as final, compared as ``LocalAgreement/key(_:)``.
    var committed: [String] = []
    /// Where this job's result starts: after the audio of the committed words.
    var publishedStart: Int
    /// The final text before this audio, which the decode reads on from (see ``context(before:)``):
    /// for the final decode of a piece that goes on from a cut, not after a pause.
    var prompt: String?

    init(
      isFinal: Bool, range: Range<Int>, samples: [Float], committed: [String] = [], publishedStart: Int? = nil,
      prompt: String? = nil
    ) {
      self.isFinal = isFinal
      self.range = range
      self.samples = samples
      self.committed = committed
      self.publishedStart = publishedStart ?? range.lowerBound
      self.prompt = prompt
    }
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
  /// The open utterance's committed words and last volatile decode.
  private var agreement: LocalAgreement
  /// Where the final results of the open utterance's committed words end (roughly: word times).
  private var committedEnd = 0
  /// How far the open utterance has been searched for a short quiet moment to end it at.
  private var gapSearched = 0
  /// Whether the open utterance goes on from one cut at a short quiet moment (or at its longest),
  /// rather than starting after a pause.
  private var utteranceContinues = false
  /// The last final results published, with where their audio ends, for ``context(before:)``.
  private var recentFinals: [(end: Int, text: String)] = []
  /// Closed utterances waiting for their final decode, in order.
  private var finals: [Job] = []
  /// The decode in progress and the flag that abandons it.
  private var running: (job: Job, abandon: CancellationFlag)?
  private var failure: (any Error)?
  private var isCancelled = false
  /// Results of audio that ends by here are not wanted (``cancelAnalysis(before:)``).
  private var unwantedBefore = 0
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
    agreement = LocalAgreement(decodes: policy.agreeingDecodes, shortestDecode: policy.shortestStableDecode)
  }

  private var pendingEnd: Int { pendingStart + pending.count }

  /// Whether stable words are committed before a pause: by the policy, and never with a custom
  /// language model, whose commands are whole utterances.
  private var commitsStableWords: Bool { policy.commitsStableWords && steering == nil }

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
    if commitsStableWords, let start = utteranceStart, let gap = shortGap(after: start) { split(at: gap) }
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

  /// The first final decode queued or running (from the words it has still to publish), else the
  /// open utterance after its committed words, else the silence kept for a next utterance to
  /// start in (``keptForNextUtterance``).
  var unsettledStart: Int? {
    var starts = finals.map(\.publishedStart)
    if let running, running.job.isFinal { starts.append(running.job.publishedStart) }
    if let start = utteranceStart {
      starts.append(commitsStableWords ? max(start, committedEnd) : start)
    } else if pendingEnd > pendingStart {
      starts.append(max(pendingStart, pendingEnd - keptForNextUtterance))
    }
    return starts.min()
  }

  /// Samples of silence kept at the end of the input: a next utterance opens this far back at
  /// most (its pre-roll, the speech that confirms it, a window of judging).
  private var keptForNextUtterance: Int {
    policy.preRoll + policy.activity.minimumSpeech + VoiceActivityDetector.windowSize
  }

  func cancel() {
    isCancelled = true
    finals.removeAll()
    running?.abandon.set()
    resumeWaitersIfDrained()
  }

  /// Drops the final decodes queued for utterances that end by `position`, abandons one running
  /// for such an utterance, and publishes no result that ends by then. The open utterance, and
  /// everything after `position`, is analysed as usual.
  func cancelAnalysis(before position: Int) {
    unwantedBefore = max(unwantedBefore, position)
    if let running, running.job.range.upperBound <= position { running.abandon.set() }
    schedule()
  }

  // MARK: - Utterances

  private func open(at speechStart: Int) {
    guard utteranceStart == nil else { return }
    utteranceStart = max(pendingStart, speechStart - policy.preRoll)
    utteranceHasSpeech = true
    volatileEnd = max(pendingStart, speechStart)
    beginPiece(continuing: false)
  }

  /// Closes the open utterance at `end`: queues its final decode (unless it holds no speech, which
  /// Whisper would only invent words for) and drops its audio.
  private func close(at end: Int) {
    guard let start = utteranceStart else { return }
    utteranceStart = nil
    let committed = agreement.committed.map(\.key)
    agreement.reset()
    let end = min(max(end, start), pendingEnd)
    guard end > start else { return }
    if utteranceHasSpeech {
      finals.append(
        Job(
          isFinal: true, range: start..<end, samples: Array(pending[(start - pendingStart)..<(end - pendingStart)]),
          committed: committed, publishedStart: min(committedEnd, end),
          prompt: utteranceContinues ? context(before: start) : nil))
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
    beginPiece(continuing: true)
  }

  /// Starts the bookkeeping of stable words and short pauses for the utterance just opened, which
  /// goes on from a cut (`continuing`) or starts after a pause.
  private func beginPiece(continuing: Bool) {
    committedEnd = utteranceStart ?? pendingStart
    gapSearched = committedEnd
    utteranceContinues = continuing
  }

  /// Between utterances, keeps only the moments of silence a next utterance might start with.
  private func dropSilence() {
    let keep = keptForNextUtterance
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

  /// The middle of the first quiet moment of ``Policy/shortestGap`` or more in the open
  /// utterance once it is ``Policy/shortestPiece`` long, if one has come: quiet meaning 20 ms
  /// frames that all carry at most ``quietShare`` of the energy of the utterance's loud moments
  /// (its 90th percentile frame). A moment that quiet and that long lies between words.
  private func shortGap(after start: Int) -> Int? {
    let size = Self.frameSize
    guard pendingEnd - start >= policy.shortestPiece + size else { return nil }
    let energies = frameEnergies(start..<pendingEnd)
    guard energies.count > 10 else { return nil }
    let quiet = Self.quietShare * energies.sorted()[energies.count * 9 / 10]
    let needed = (policy.shortestGap + size - 1) / size
    var run = 0
    let first = max(0, (max(gapSearched, start + policy.shortestPiece) - start) / size - needed)
    for index in first..<energies.count {
      run = energies[index] <= quiet ? run + 1 : 0
      if run >= needed {
        return start + (index + 1 - run / 2) * size
      }
    }
    gapSearched = start + max(0, energies.count - needed) * size
    return nil
  }

  /// The share of the energy of loud speech at most that a quiet moment carries: 30 dB below.
  private static let quietShare: Float = 0.001
  /// The frames whose energy finds quiet moments: 20 ms.
  private static let frameSize = Policy.seconds(0.02)

  /// The energy of each whole ``frameSize`` frame of the pending audio in `range`, from its start.
  private func frameEnergies(_ range: Range<Int>) -> [Float] {
    let size = Self.frameSize
    let lower = max(range.lowerBound, pendingStart) - pendingStart
    let upper = min(range.upperBound, pendingEnd) - pendingStart
    return stride(from: lower, to: upper - size + 1, by: size).map { offset in
      pending[offset..<(offset + size)].reduce(Float(0)) { $0 + $1 * $1 }
    }
  }

  // MARK: - Decoding

  /// Starts the next decode when the engine is idle: a waiting final first, else a volatile
  /// update of the open utterance once enough new audio has come.
  private func schedule() {
    defer { resumeWaitersIfDrained() }
    finals.removeAll { $0.range.upperBound <= unwantedBefore }
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
      if job.prompt != nil, Self.repeatsItself(words.map { LocalAgreement.key($0.bytes) }) {
        // The text before can set Whisper going round in a loop; this audio is read without it.
        var plain = job
        plain.prompt = nil
        decoded = try await context.decodeUtterance(job.samples, options: options(for: plain), shouldAbort: abort)
        words = SpeechTranscriber.Result.words(of: decoded.segments.flatMap(\.tokens))
      }
      if !job.committed.isEmpty {
        words.removeFirst(LocalAgreement.end(of: job.committed, in: words.map { LocalAgreement.key($0.bytes) }))
      }
      if job.isFinal, let steering, let promptGuard = steering.promptGuard {
        // Biasing with a prompt: the decode above had none; keep the prompted one's words only
        // where they bring in the model's words.
        let prompted = try await context.decodeUtterance(
          job.samples, options: options(for: job, prompted: true), shouldAbort: abort)
        let promptedWords = SpeechTranscriber.Result.words(of: prompted.segments.flatMap(\.tokens))
        words = promptGuard.merge(plain: [words], prompted: promptedWords)[0]
        decoded.language = decoded.language ?? prompted.language
      }
      if job.isFinal || !commitsStableWords {
        try await publish(
          words, origin: job.range.lowerBound, range: job.publishedStart..<job.range.upperBound, isFinal: job.isFinal)
      } else if utteranceStart == job.range.lowerBound {
        try await commitStableWords(words, of: job)
      }  // else the utterance was cut while this ran, and the final for its audio is on its way.
      if job.isFinal { onLanguage(decoded.language) }
    } catch SpeechTranscriptionError.cancelled
      where (!job.isFinal || job.range.upperBound <= unwantedBefore) && !shouldAbort()
    {
      // A volatile decode abandoned for a final, or a decode of audio no longer wanted: there is
      // nothing to show.
    } catch {
      if !isCancelled {
        failure = error
        continuation.finish(throwing: error)
      }
    }
    running = nil
    schedule()
  }

  /// Publishes `words` (times in seconds from `origin`) as a result for `range`, rewritten by the
  /// custom language model if there is one.
  private func publish(_ words: [WhisperSegment.Token], origin: Int, range: Range<Int>, isFinal: Bool) async throws {
    guard !isCancelled, range.upperBound > unwantedBefore else { return }
    let offset = Double(origin) / Double(LiveAudio.sampleRate)
    let words = words.map { word in
      var word = word
      word.start += offset
      word.end += offset
      return word
    }
    let timeRange = LiveAudio.timeRange(range)
    let finalization = isFinal ? timeRange.end : timeRange.start
    let result =
      if let steering {
        try await SpeechTranscriber.Result(
          words: words.map(TranscribedSegment.Word.init), range: timeRange, resultsFinalizationTime: finalization,
          attributes: attributes, steering: steering)
      } else {
        SpeechTranscriber.Result(
          words: words, range: timeRange, resultsFinalizationTime: finalization, attributes: attributes)
      }
    guard !isCancelled else { return }
    if isFinal {
      // An empty final still replaces the volatile text shown for its audio.
      guard !result.text.characters.isEmpty || volatileShowing else { return }
      volatileShowing = false
      recentFinals.append((range.upperBound, String(result.text.characters)))
      if recentFinals.count > Self.contextResults { recentFinals.removeFirst() }
    } else {
      guard !result.text.characters.isEmpty else { return }
      volatileShowing = true
    }
    continuation.yield(result)
  }

  /// Publishes a volatile decode of the open utterance: first, as a final result, the words after
  /// the committed ones that the previous decode agreed on, then the rest as volatile text.
  private func commitStableWords(_ words: [WhisperSegment.Token], of job: Job) async throws {
    let origin = job.range.lowerBound
    let placed = words.map { word in
      LocalAgreement.Word(token: word, end: origin + Self.samples(word.end))
    }
    let (fresh, agreed) = agreement.agreement(with: placed, length: job.range.count)
    if agreed > 0 {
      agreement.commit(agreed)
      // The words' audio ends about where Whisper says the last of them ends.
      let start = committedEnd
      committedEnd = min(max(placed[fresh + agreed - 1].end, start + 1), job.range.upperBound)
      try await publish(
        Array(words[fresh..<(fresh + agreed)]), origin: origin, range: start..<committedEnd, isFinal: true)
    }
    try await publish(
      Array(words[(fresh + agreed)...]), origin: origin, range: committedEnd..<max(committedEnd, job.range.upperBound),
      isFinal: false)
  }

  /// The final text of the speech before `position`, its last ``contextLength`` characters or so
  /// from a word on, which the final decode of a piece cut at a short quiet moment reads on from
  /// (Whisper's prompt), as Whisper does between the windows of a file: the piece then starts as
  /// the sentence goes on, not as a new one. (Volatile decodes go without: a prompt slows them,
  /// and carries a misheard word on.) Nil with a custom language model (it has its own prompt) or
  /// when nothing was said before.
  private func context(before position: Int) -> String? {
    guard commitsStableWords else { return nil }
    let text = recentFinals.filter { $0.end <= position }.map(\.text).joined(separator: " ")
    guard !text.isEmpty else { return nil }
    guard text.count > Self.contextLength else { return text }
    let tail = text.suffix(Self.contextLength)
    return String(tail.drop { !$0.isWhitespace }.dropFirst())
  }

  /// Whether `words` go round in a loop: some run of words said three times over, six words or
  /// more in all ("no, no, no" is speech; the same sentence three times is not).
  static func repeatsItself(_ words: [String]) -> Bool {
    guard words.count >= 6 else { return false }
    for length in 2...(words.count / 3) {
      for start in 0...(words.count - 3 * length) {
        let first = words[start..<(start + length)]
        if first.elementsEqual(words[(start + length)..<(start + 2 * length)])
          && first.elementsEqual(words[(start + 2 * length)..<(start + 3 * length)])
        {
          return true
        }
      }
    }
    return false
  }

  /// How much text before a piece its decode reads on from, in characters.
  private static let contextLength = 200
  /// How many final results are kept for ``context(before:)``.
  private static let contextResults = 20

  /// A time in seconds from a decode's start, in samples.
  private static func samples(_ seconds: Double) -> Int { Int((seconds * Double(LiveAudio.sampleRate)).rounded()) }

  /// Greedy decoding in a window fitted to the utterance, reading on from the final text before
  /// it; volatile decodes also skip the temperature fallback (and timestamps, unless their words
  /// may be committed), finals keep them for accuracy.
  /// With a custom language model that biases with a prompt, a final is decoded without the prompt
  /// and, with `prompted`, again with it (volatile decodes go without).
  private func options(for job: Job, prompted: Bool = false) -> WhisperDecodingOptions {
    var options = WhisperDecodingOptions(
      language: language, threads: EngineHost.threadCount, beamSize: 1, voiceActivityModel: nil, initialPrompt: nil)
    let commits = !job.isFinal && commitsStableWords
    options.audioContext = Self.audioContext(
      forSamples: job.samples.count,
      minimum: commits ? policy.volatileWindow : WhisperDecodingOptions.smallestFittedAudioContext)
    // Committed words are placed on the timeline by their times.
    options.tokenTimestamps = attributes.contains(.audioTimeRange) || commits
    options.suppressNonSpeechTokens = true
    if !job.isFinal {
      options.singleSegment = true
      options.temperatureFallback = false
      // Nobody says more than eight tokens a second: a bound on a decoder repeating itself.
      options.maximumTokens = 16 + 8 * job.samples.count / LiveAudio.sampleRate
    }
    options.initialPrompt = job.prompt
    steering?.apply(to: &options, isFinal: job.isFinal, prompted: prompted)
    return options
  }

  /// The encoder window for an utterance of `count` samples, in encoder frames (see
  /// ``WhisperDecodingOptions/fittedAudioContext(forSamples:sampleRate:)``; the half-second
  /// lead-in the decode adds is inside its spare second and a half).
  static func audioContext(
    forSamples count: Int, minimum: Int = WhisperDecodingOptions.smallestFittedAudioContext
  ) -> Int {
    WhisperDecodingOptions.fittedAudioContext(
      forSamples: count, sampleRate: Double(LiveAudio.sampleRate), minimum: minimum)
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
