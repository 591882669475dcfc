import AudioIO
import Foundation
import Synchronization

/// Runs speech modules, such as ``SpeechTranscriber`` and ``SpeechDetector``, over audio.
///
/// As in Apple's Speech framework: create it with its modules, start it on a file or on a
/// sequence of buffers, and read each module's results.
/// `start(inputAudioFile:finishAfterFile:)` decodes the file (so a bad file fails right there,
/// with a message naming it) and returns while the analysis runs:
///
/// ```swift
/// let analyzer = SpeechAnalyzer(modules: [transcriber])
/// try await analyzer.start(inputAudioFile: file, finishAfterFile: true)
/// ```
///
/// Live audio, such as a microphone's, comes as an `AsyncStream` of ``AnalyzerInput``. With
/// `.volatileResults` the transcriber publishes tentative text as people speak and final text
/// when they pause; each result's `range` says which audio it covers:
///
/// ```swift
/// let (inputSequence, inputBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)
/// try await analyzer.start(inputSequence: inputSequence)
/// inputBuilder.yield(AnalyzerInput(buffer: buffer))  // as audio arrives, in any format
/// inputBuilder.finish()                              // when the speaker stops
/// try await analyzer.finalizeAndFinishThroughEndOfInput()
/// ```
public actor SpeechAnalyzer {
  /// Settings that affect how the analyzer runs.
  public struct Options: Sendable {
    /// How long a loaded model stays in memory.
    public enum ModelRetention: Sendable, Hashable {
      /// Until the analyzer is released.
      case whileInUse
      /// For a while after the analyzer is released.
      case lingering
      /// Until the process ends (how models are kept here: loading is the slow part).
      case processLifetime
    }

    /// The priority of the analysis task.
    public var priority: TaskPriority
    /// How long a loaded model stays in memory.
    public var modelRetention: ModelRetention

    /// Creates options with a task priority and a model-retention policy.
    public init(priority: TaskPriority, modelRetention: ModelRetention) {
      self.priority = priority
      self.modelRetention = modelRetention
    }
  }

  /// The modules the analyzer drives; ``setModules(_:)`` changes them.
  public private(set) var modules: [any SpeechModule]
  private let options: Options?
  private var analysis: Task<CMTime?, any Error>?
  /// The modules the running analysis hands audio to, with their analyses of live input.
  private let running = AnalyzerModuleSet()
  /// Whether the input is a sequence (live) rather than a file.
  private var isLive = false
  private var isFinished = false
  private let abort = CancellationFlag()
  /// The longest stretch of an input file analysed at once, in 16 kHz samples.
  private var fileWindowLimit = RecordingWindows.standardLimit

  /// Analyses input files in stretches of at most `samples` 16 kHz samples (tests use short ones).
  func limitFileWindows(toSamples samples: Int) {
    fileWindowLimit = samples
  }
  /// Seconds of live input consumed so far, and whether the input has ended.
  private let consumed = ConsumedInput()
  /// The context set by ``setContext(_:)``.
  public private(set) var context = AnalysisContext()
  private var volatileRangeHandler: ((CMTimeRange, Bool, Bool) -> Void)?
  private var reportedVolatileRange: CMTimeRange?
  private var watchingVolatileRange: Task<Void, Never>?

  /// Creates an analyzer that will run `modules`.
  public init(modules: [any SpeechModule], options: Options? = nil) {
    self.modules = modules
    self.options = options
  }

  /// An analyzer that starts on `inputAudioFile` at once, as Apple's convenience initializer does:
  /// the context is set, then the file is decoded and its analysis begins.
  ///
  /// - Parameter volatileRangeChangedHandler: called as ``volatileRange`` changes (see
  ///   ``setVolatileRangeChangedHandler(_:)``).
  /// - Throws: what ``setContext(_:)`` and ``start(inputAudioFile:finishAfterFile:)`` throw.
  public init(
    inputAudioFile: AVAudioFile, modules: [any SpeechModule], options: Options? = nil,
    analysisContext: AnalysisContext = AnalysisContext(), finishAfterFile: Bool = false,
    volatileRangeChangedHandler: sending ((CMTimeRange, Bool, Bool) -> Void)? = nil
  ) async throws {
    self.init(modules: modules, options: options)
    volatileRangeHandler = volatileRangeChangedHandler
    try await setContext(analysisContext)
    try await start(inputAudioFile: inputAudioFile, finishAfterFile: finishAfterFile)
  }

  /// An analyzer that starts on `inputSequence` at once, as Apple's convenience initializer does.
  ///
  /// The sequence may be of any kind, throwing or not (an `AsyncStream`, an
  /// `AsyncThrowingStream`, ...); see ``start(inputSequence:)`` for what an error it throws does.
  ///
  /// - Parameter volatileRangeChangedHandler: called as ``volatileRange`` changes (see
  ///   ``setVolatileRangeChangedHandler(_:)``).
  /// - Throws: what ``setContext(_:)`` and ``start(inputSequence:)`` throw.
  public init<InputSequence: AsyncSequence & Sendable>(
    inputSequence: InputSequence, modules: [any SpeechModule],
    options: Options? = nil, analysisContext: AnalysisContext = AnalysisContext(),
    volatileRangeChangedHandler: sending ((CMTimeRange, Bool, Bool) -> Void)? = nil
  ) async throws where InputSequence.Element == AnalyzerInput {
    self.init(modules: modules, options: options)
    volatileRangeHandler = volatileRangeChangedHandler
    try await setContext(analysisContext)
    try await start(inputSequence: inputSequence)
  }

  /// The format to give the analyzer: 16 kHz mono, what every module here consumes.
  ///
  /// Buffers in other formats are accepted too (the analyzer converts them); giving this
  /// format saves the conversion.
  public static func bestAvailableAudioFormat(compatibleWith modules: [any SpeechModule]) async -> AudioFormat? {
    .speechAnalysis
  }

  /// The format to give the analyzer when the audio comes in `naturalFormat`: 16 kHz mono, since
  /// Whisper consumes nothing else (the channels are mixed and the rate converted once, here).
  public static func bestAvailableAudioFormat(
    compatibleWith modules: [any SpeechModule], considering naturalFormat: AudioFormat?
  ) async -> AudioFormat? {
    .speechAnalysis
  }

  /// Starts analysing `inputAudioFile`, decoding it as the analysis goes; returns once the
  /// analysis is under way (after its first half minute is decoded, so a file that cannot be read
  /// fails here).
  ///
  /// The file is analysed in windows of a few minutes cut at pauses (see ``RecordingWindows``),
  /// so a recording of any length takes the memory of one window.
  ///
  /// - Parameter finishAfterFile: end the modules' result streams when the file is done; when
  ///   false they stay open until ``finalizeAndFinishThroughEndOfInput()``.
  /// - Throws: ``SpeechTranscriptionError`` when a module cannot run, `AudioIOError` when the file
  ///   cannot be decoded. The modules' result streams end with the same error.
  public func start(inputAudioFile: AudioFile, finishAfterFile: Bool = false) async throws {
    guard analysis == nil, !isFinished else {
      throw SpeechTranscriptionError.invalidState("start was called on an analyzer that already has input")
    }
    let reader: AudioFileReader
    let first: AudioBuffer?
    do {
      for module in analyzableModules { try module.checkReady() }
      reader = try AudioFileReader(file: inputAudioFile)
      first = try reader.read(frames: RecordingWindows.readSize)
    } catch {
      finishModules(throwing: error)
      throw error
    }
    let modules = analyzableModules
    let voiceActivityModelPath =
      modules.first?.voiceActivityModelPath
      ?? ModelDirectory.current.file(named: VoiceActivityDetector.modelFileName).path
    let abort = abort
    let fileWindowLimit = fileWindowLimit
    let running = running
    let consumed = consumed
    running.replace(with: modules.map { AnalyzerModuleSet.Entry(module: $0, live: nil) })
    let shouldAbort: @Sendable () -> Bool = { abort.isSet || Task.isCancelled }
    analysis = Task(priority: options?.priority) {
      defer { consumed.state.withLock { $0.ended = true } }
      let windows = RecordingWindows(
        reader: reader, first: first, voiceActivityModelPath: voiceActivityModelPath, limit: fileWindowLimit)
      var end = 0
      do {
        while let window = try await windows.next() {
          if shouldAbort() { throw SpeechTranscriptionError.cancelled }
          let offset = Double(window.start) / AudioFormat.speechAnalysis.sampleRate
          end = window.start + window.audio.frameLength
          consumed.state.withLock { $0.seconds = Double(end) / AudioFormat.speechAnalysis.sampleRate }
          // The modules running now: setModules(_:) may have changed them since the last window.
          for module in running.modules {
            try await module.analyze(window.audio, at: offset, shouldAbort: shouldAbort)
          }
          consumed.state.withLock { $0.analysed = end }
        }
      } catch {
        for module in running.modules { module.finishResults(throwing: error) }
        throw error
      }
      if finishAfterFile {
        for module in running.modules { module.finishResults(throwing: nil) }
      }
      return CMTime(
        value: Int64(max(end, reader.framePosition)), timescale: Int32(AudioFormat.speechAnalysis.sampleRate))
    }
    if finishAfterFile { isFinished = true }
    watchVolatileRange()
  }

  /// Starts analysing an AVFoundation-shaped file, as Apple's analyzer takes an `AVAudioFile`.
  public func start(inputAudioFile: AVAudioFile, finishAfterFile: Bool = false) async throws {
    try await start(inputAudioFile: try inputAudioFile.audioFile, finishAfterFile: finishAfterFile)
  }

  /// Starts analysing the buffers of `inputSequence` as they arrive; returns once the analysis
  /// is running.
  ///
  /// Buffers may come in any format: they are converted to 16 kHz mono. A buffer's
  /// `bufferStartTime` places it on the timeline (a gap counts as silence); without one it follows
  /// the buffer before. The modules publish results while the input arrives; when it ends, call
  /// ``finalizeAndFinishThroughEndOfInput()`` for the last final results.
  ///
  /// The sequence may be of any kind, throwing or not (an `AsyncStream`, an
  /// `AsyncThrowingStream`, a sequence of your own), as with Apple's analyzer. An error the
  /// sequence throws ends the analysis with that error, as any analysis error does: every
  /// module's result stream throws it, and ``analyzeSequence(_:)`` and
  /// ``finalizeAndFinishThroughEndOfInput()`` rethrow it. (Apple documents that an analysis error
  /// is thrown from every module's results, but not what an input sequence's error does.)
  ///
  /// - Throws: ``SpeechTranscriptionError`` when a module cannot run (a model or the
  ///   voice-activity model is missing, a locale unsupported); the modules' result streams end
  ///   with the same error. A buffer that cannot be converted ends the analysis and the streams
  ///   with `AudioIOError.unsupportedFormat`.
  public func start<InputSequence: AsyncSequence & Sendable>(inputSequence: InputSequence) async throws
  where InputSequence.Element == AnalyzerInput {
    guard analysis == nil, !isFinished else {
      throw SpeechTranscriptionError.invalidState("start was called on an analyzer that already has input")
    }
    let modules = analyzableModules
    let abort = abort
    let shouldAbort: @Sendable () -> Bool = { abort.isSet }
    let detector: VoiceActivityDetector
    let analyses: [any LiveModuleAnalysis]
    do {
      for module in modules { try module.checkReady() }
      let path =
        modules.first?.voiceActivityModelPath
        ?? ModelDirectory.current.file(named: VoiceActivityDetector.modelFileName).path
      guard FileManager.default.fileExists(atPath: path) else {
        throw SpeechTranscriptionError.voiceActivityModelMissing(path: path)
      }
      detector = try VoiceActivityDetector(modelPath: path)
      analyses = try modules.map { try $0.makeLiveAnalysis(shouldAbort: shouldAbort) }
    } catch {
      finishModules(throwing: error)
      throw error
    }
    running.replace(with: zip(modules, analyses).map { AnalyzerModuleSet.Entry(module: $0, live: $1) })
    isLive = true
    let consumed = consumed
    let running = running
    analysis = Task.detached(priority: options?.priority) {
      var feed = LiveAnalysis(detector: detector, modules: running)
      defer { consumed.state.withLock { $0.ended = true } }
      do {
        for try await input in inputSequence {
          if abort.isSet { break }
          try await feed.consume(input)
          consumed.state.withLock {
            $0.seconds = max($0.seconds, (input.bufferStartTime?.seconds ?? $0.seconds) + input.buffer.duration)
          }
        }
        return try await feed.finishInput()
      } catch {
        for analysis in running.liveAnalyses { await analysis.cancel() }
        for module in running.modules { module.finishResults(throwing: error) }
        throw error
      }
    }
    watchVolatileRange()
  }

  // MARK: - The volatile range

  /// The audio whose results may still change: from the earliest result not yet final (pending,
  /// or published as volatile) to the end of the input the analyzer has taken. Results outside it
  /// will not be replaced, so an app may consolidate them. Empty when every result so far is
  /// final; nil before any input.
  public var volatileRange: CMTimeRange? {
    get async { await currentVolatileRange() }
  }

  /// Sets (or, with nil, removes) a handler called as ``volatileRange`` changes, with whether its
  /// start moved (earlier results became final) and whether its end moved (more input was
  /// taken). It is called on the analyzer, about every 50 ms at most, until the analysis
  /// finishes with every result final.
  public func setVolatileRangeChangedHandler(_ handler: sending ((CMTimeRange, Bool, Bool) -> Void)?) {
    volatileRangeHandler = handler
    watchVolatileRange()
  }

  private func currentVolatileRange() async -> CMTimeRange? {
    guard analysis != nil else { return nil }
    let seconds = consumed.state.withLock { $0.seconds }
    let end = LiveAudio.time(Int((seconds * Double(LiveAudio.sampleRate)).rounded()))
    var start = end
    if isLive {
      for live in running.liveAnalyses {
        if let unsettled = await live.unsettledStart { start = min(start, LiveAudio.time(unsettled)) }
      }
    } else {
      // Within a window each module publishes as it goes; a finished window is final throughout.
      let finished = LiveAudio.time(consumed.state.withLock { $0.analysed })
      for module in running.modules { start = min(start, max(module.publishedThrough, finished)) }
    }
    return CMTimeRange(start: min(start, end), end: end)
  }

  /// Reports the volatile range to the handler while there is one and the analysis has not
  /// finished with every result final.
  private func watchVolatileRange() {
    guard watchingVolatileRange == nil, analysis != nil, volatileRangeHandler != nil else { return }
    watchingVolatileRange = Task { [weak self] in
      while let self, await self.reportVolatileRange() {
        try? await Task.sleep(for: .milliseconds(50))
      }
    }
  }

  /// Calls the handler when the range has changed; false once there is nothing more to report.
  private func reportVolatileRange() async -> Bool {
    guard let handler = volatileRangeHandler, let range = await currentVolatileRange() else {
      watchingVolatileRange = nil
      return false
    }
    if range != reportedVolatileRange {
      let previous = reportedVolatileRange
      reportedVolatileRange = range
      handler(range, previous.map { $0.start != range.start } ?? true, previous.map { $0.end != range.end } ?? true)
    }
    let over = consumed.state.withLock { $0.ended } && range.duration == .zero
    if over { watchingVolatileRange = nil }
    return !over
  }

  /// Analyzes the buffers of `inputSequence` until it ends and returns the time just after its
  /// last sample. The results stay open: ``finalizeAndFinishThroughEndOfInput()`` publishes the
  /// last final results and ends them.
  ///
  /// - Throws: what ``start(inputSequence:)`` throws, and an error the sequence throws (which
  ///   also ends the modules' result streams).
  @discardableResult
  public func analyzeSequence<InputSequence: AsyncSequence & Sendable>(_ inputSequence: InputSequence) async throws
    -> CMTime? where InputSequence.Element == AnalyzerInput
  {
    try await start(inputSequence: inputSequence)
    return try await analysis?.value
  }

  /// Analyzes the whole file and returns the time of its last sample, leaving the results open.
  public func analyzeSequence(from file: AudioFile) async throws -> CMTime? {
    try await start(inputAudioFile: file, finishAfterFile: false)
    return try await analysis?.value
  }

  /// Analyzes the whole AVFoundation-shaped file and returns the time of its last sample.
  public func analyzeSequence(from file: AVAudioFile) async throws -> CMTime? {
    try await analyzeSequence(from: try file.audioFile)
  }

  /// Biases the transcribers toward the context's contextual strings (all tags), from the next
  /// analysis they start.
  ///
  /// - Throws: ``CustomLanguageModelError`` when the strings cannot be made into a model.
  public func setContext(_ context: AnalysisContext) async throws {
    let strings = Self.contextualStrings(of: context)
    for module in analyzableModules { try module.apply(contextualStrings: strings) }
    self.context = context
  }

  /// The contextual strings of every tag of `context`, in a stable order.
  private static func contextualStrings(of context: AnalysisContext) -> [String] {
    context.contextualStrings.keys.sorted { $0.rawValue < $1.rawValue }.flatMap {
      context.contextualStrings[$0] ?? []
    }
  }

  /// Replaces the modules with `newModules`; keep a module by including it again.
  ///
  /// Before the input starts, this only changes what will run. While the analysis runs, as with
  /// Apple's analyzer, an added module analyses the audio that arrives from now on (never audio
  /// already analysed) and a removed one stops: it publishes the final results of what it has
  /// been given and its result stream ends. Added modules get the analyzer's context.
  ///
  /// - Throws: ``SpeechTranscriptionError`` when an added module cannot run (its model is not
  ///   installed, say; nothing changes then) or the analyzer has finished.
  public func setModules(_ newModules: [any SpeechModule]) async throws {
    guard !isFinished else {
      throw SpeechTranscriptionError.invalidState("setModules was called on an analyzer that has finished")
    }
    let old = analyzableModules
    let new = newModules.compactMap { $0 as? any AnalyzableModule }
    let added = new.filter { module in !old.contains { $0 === module } }
    let removed = old.filter { module in !new.contains { $0 === module } }
    let strings = Self.contextualStrings(of: context)
    for module in added { try module.apply(contextualStrings: strings) }
    guard analysis != nil else {
      modules = newModules
      return
    }
    for module in added { try module.checkReady() }
    let abort = abort
    var entries: [AnalyzerModuleSet.Entry] = []
    for module in new {
      if let entry = running.entry(for: module) {
        entries.append(entry)
      } else {
        let live = isLive ? try module.makeLiveAnalysis(shouldAbort: { abort.isSet }) : nil
        entries.append(AnalyzerModuleSet.Entry(module: module, live: live))
      }
    }
    let leaving = removed.compactMap { running.entry(for: $0) }
    running.replace(with: entries)
    modules = newModules
    for entry in leaving {
      var failure: (any Error)?
      do {
        try await entry.live?.finish()
      } catch {
        failure = error
      }
      entry.module?.finishResults(throwing: failure)
    }
  }

  /// Loads the modules' models now, so that analysis starts without that wait (as Apple's
  /// analyzer loads its assets); `format` is accepted for compatibility (every format is converted).
  ///
  /// - Throws: ``SpeechTranscriptionError`` when a module cannot run.
  public func prepareToAnalyze(in format: AudioFormat?) async throws {
    for module in analyzableModules { try module.prepare() }
  }

  /// Loads the modules' models, reporting through `handler` a progress that completes when
  /// they are ready.
  public func prepareToAnalyze(
    in format: AudioFormat?, withProgressReadyHandler handler: (@Sendable (Progress) -> Void)?
  )
    async throws
  {
    let progress = Progress(totalUnitCount: Int64(max(analyzableModules.count, 1)))
    handler?(progress)
    for module in analyzableModules {
      try module.prepare()
      progress.completedUnitCount += 1
    }
    progress.completedUnitCount = progress.totalUnitCount
  }

  /// Publishes final results through `time` without waiting for a pause, and returns once they
  /// are published; the analysis goes on with the input that follows.
  ///
  /// A nil `time` means all the input received so far. With an input sequence, a `time` beyond
  /// the input received so far waits, as Apple's analyzer does, until input through that time
  /// has arrived, or until the sequence ends (then all of its input is finalized). For a file,
  /// returns once every module has published its results up to `time` (or the file is done).
  public func finalize(through time: CMTime?) async throws {
    if !isLive {
      guard let time, let analysis else {
        _ = try await self.analysis?.value
        return
      }
      if try await waitForResults(of: analysis, through: time) { _ = try await analysis.value }
      return
    }
    // Apple's analyzer finalizes audio it has consumed.
    if let time { try await waitForInput(through: time) }
    let position = time.map(LiveAudio.position)
    for live in running.liveAnalyses { try await live.finalize(through: position) }
  }

  /// Waits for the input to end and be analysed, publishes the final results for everything still
  /// pending (nothing is lost, even a word cut off mid-way), then ends every module's result
  /// stream.
  ///
  /// With an input sequence, finish the sequence first (`continuation.finish()`); this waits for
  /// its end.
  public func finalizeAndFinishThroughEndOfInput() async throws {
    defer {
      isFinished = true
      finishModules(throwing: nil)
    }
    _ = try await analysis?.value
    for live in running.liveAnalyses { try await live.finish() }
  }

  /// Publishes the final results through `time`, then stops and ends every module's result
  /// stream: audio after `time` is not analysed (results already published for it stay).
  public func finalizeAndFinish(through time: CMTime) async throws {
    defer {
      isFinished = true
      finishModules(throwing: nil)
    }
    try await finalize(through: time)
    abort.set()
    analysis?.cancel()
    for live in running.liveAnalyses { await live.cancel() }
    _ = try? await analysis?.value
  }

  /// Stops analysing audio before `time`: results still pending for audio that ends by then are
  /// dropped (a queued final decode of an utterance that ended is not run, nor a file's window
  /// that ended) and none is published for it; results already published stay. Analysis goes on
  /// as usual at and after `time`. For
  /// live captions whose scene changed, or to catch up when the analysis falls behind.
  public func cancelAnalysis(before time: CMTime) async {
    for module in analyzableModules { module.cancelResults(before: time) }
    for live in running.liveAnalyses { await live.cancelAnalysis(before: LiveAudio.position(time)) }
  }

  /// Waits until the input through `time` has been taken (or the input ends), then stops as
  /// ``cancelAndFinishNow()`` does: results published by then stay, those still pending are
  /// dropped, and the result streams end. For a file, "taken" means analysed through `time`.
  public func finish(after time: CMTime) async throws {
    if isLive {
      try await waitForInput(through: time)
    } else if let analysis {
      _ = try await waitForResults(of: analysis, through: time)
    }
    await cancelAndFinishNow()
  }

  /// Waits until every module of a file's `analysis` has published its results through `time`,
  /// or the analysis has ended; returns whether it has ended.
  private func waitForResults(of analysis: Task<CMTime?, any Error>, through time: CMTime) async throws -> Bool {
    let modules = analyzableModules
    let finished = CancellationFlag()
    Task {
      _ = try? await analysis.value
      finished.set()
    }
    while !finished.isSet, !modules.allSatisfy({ $0.publishedThrough >= time }) {
      try await Task.sleep(for: .milliseconds(20))
    }
    return finished.isSet
  }

  /// Waits for the live input through `time` to arrive, or for the input to end. The consumed
  /// seconds are a sum of buffer durations, so they are compared within half a sample (a sum of
  /// 0.1 s buffers falls just short of 5.5 s).
  private func waitForInput(through time: CMTime) async throws {
    let needed = time.seconds - 0.5 / Double(LiveAudio.sampleRate)
    while consumed.state.withLock({ !$0.ended && $0.seconds < needed }) {
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  /// Stops the analysis as soon as the engine allows and ends the result streams; results not
  /// yet published are dropped.
  public func cancelAndFinishNow() async {
    abort.set()
    analysis?.cancel()
    for live in running.liveAnalyses { await live.cancel() }
    _ = try? await analysis?.value
    isFinished = true
    finishModules(throwing: nil)
  }

  private var analyzableModules: [any AnalyzableModule] {
    modules.compactMap { $0 as? any AnalyzableModule }
  }

  private func finishModules(throwing error: (any Error)?) {
    for module in analyzableModules { module.finishResults(throwing: error) }
  }
}

/// How far an analysis has read its input, shared with the task that reads it: seconds of input
/// taken, whether it has ended, and (for a file) where every module has finished its windows, in
/// 16 kHz samples.
private final class ConsumedInput: Sendable {
  let state = Mutex((seconds: 0.0, ended: false, analysed: 0))
}
