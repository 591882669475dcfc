import AudioIO
import CWhisper
import Foundation
import ModelSupport
import Synchronization

/// A loaded whisper.cpp model and the only code that calls whisper.cpp.
///
/// An actor on its own thread (``EngineThread``): whisper contexts are not thread-safe, and a
/// transcription blocks for seconds. Loaded contexts are shared through ``shared(modelAt:)`` so
/// that transcribing many files loads each model once.
actor WhisperContext {
  private let context: OpaquePointer
  private var voiceActivity: OpaquePointer?
  private var voiceActivityPath: String?
  /// The decoding state live transcription reuses between utterances.
  private var utteranceState: OpaquePointer?
  private let executor: EngineThread
  /// The model's text tokens, read when a custom language model first needs them.
  private var vocabulary: WhisperVocabulary?
  /// Logits filters prepared for recent steerings (live decoding alternates between two).
  private var filters: [WhisperSteering: WhisperLogitsFilter] = [:]
  let modelPath: String

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  private init(modelPath: String) throws(SpeechTranscriptionError) {
    Self.silenceLogs
    do { try ComputeBackend.load() } catch { throw .engineFailure(detail: error.localizedDescription) }
    var parameters = whisper_context_default_params()
    parameters.use_gpu = false
    guard let context = whisper_init_from_file_with_params_no_state(modelPath, parameters) else {
      throw .engineFailure(
        detail:
          "whisper.cpp could not load \(modelPath): the file is damaged or not a whisper.cpp model; install the model again"
      )
    }
    self.context = context
    self.modelPath = modelPath
    executor = EngineThread(name: "whisper")
  }

  isolated deinit {
    whisper_free(context)
    if let voiceActivity { whisper_vad_free(voiceActivity) }
    if let utteranceState { whisper_free_state(utteranceState) }
  }

  private static let cache = Mutex<[String: WhisperContext]>([:])

  /// The context for the model file at `path`, loading it on first use.
  static func shared(modelAt path: String) throws(SpeechTranscriptionError) -> WhisperContext {
    try cache.withLock { (contexts) throws(SpeechTranscriptionError) -> WhisperContext in
      if let context = contexts[path] { return context }
      let context = try WhisperContext(modelPath: path)
      contexts[path] = context
      return context
    }
  }

  /// Lets go of every loaded model; analyses under way keep theirs until they end.
  static func releaseShared() {
    cache.withLock { $0.removeAll() }
  }

  /// The ISO 639-1 codes of every language whisper.cpp knows.
  static var languageCodes: [String] {
    (0...whisper_lang_max_id()).compactMap { id in whisper_lang_str(id).map { String(cString: $0) } }
  }

  /// The ISO 639-1 code of the language whisper.cpp calls `name` (`english` -> `en`), or of the
  /// code `name` already is; nil when whisper.cpp knows no such language.
  static func languageCode(named name: String) -> String? {
    silenceLogs
    let id = whisper_lang_id(name)
    return id >= 0 ? whisper_lang_str(id).map { String(cString: $0) } : nil
  }

  /// Transcribes 16 kHz mono `samples`, calling `onSegment` as each segment is decoded.
  ///
  /// - Returns: the language used (detected when `options.language` is nil).
  func transcribe(
    _ samples: [Float], options: WhisperDecodingOptions, shouldAbort: @escaping @Sendable () -> Bool,
    onSegment: @escaping @Sendable (WhisperSegment) -> Void
  ) throws(SpeechTranscriptionError) -> String? {
    guard samples.count > 0 else { return options.language }
    let timeline =
      try speechTimeline(for: samples, options: options)
      ?? .whole(sampleCount: samples.count, sampleRate: AudioFormat.speechAnalysis.sampleRate)
    guard !timeline.pieces.isEmpty else { return options.language }
    // A fresh decoding state for every recording, so that a transcript never depends on what
    // was transcribed before it in the same process.
    guard let state = whisper_init_state(context) else {
      throw .engineFailure(detail: "whisper.cpp could not allocate a decoding state (out of memory?)")
    }
    defer { whisper_free_state(state) }
    let input = timeline.join(samples)
    var options = options
    if options.fitsAudioContext, options.audioContext == 0 {
      options.audioContext = WhisperDecodingOptions.fittedAudioContext(
        forSamples: input.count, sampleRate: AudioFormat.speechAnalysis.sampleRate)
    }
    return try run(
      input, timeline: timeline, state: state, options: options, shouldAbort: shouldAbort, onSegment: onSegment)
  }

  /// Decodes one utterance of 16 kHz mono `samples` in a single pass, without removing silence:
  /// the live transcription's unit of work.
  ///
  /// Live decoding calls this every fraction of a second, so it reuses one decoding state
  /// instead of allocating one per call; the previous text is never used as context.
  ///
  /// - Returns: the decoded segments, with times in seconds from the first sample, and the
  ///   language used.
  func decodeUtterance(
    _ samples: [Float], options: WhisperDecodingOptions, shouldAbort: @escaping @Sendable () -> Bool
  ) throws(SpeechTranscriptionError) -> (segments: [WhisperSegment], language: String?) {
    guard samples.count > 0 else { return ([], options.language) }
    if utteranceState == nil { utteranceState = whisper_init_state(context) }
    guard let state = utteranceState else {
      throw .engineFailure(detail: "whisper.cpp could not allocate a decoding state (out of memory?)")
    }
    let timeline = SpeechTimeline.whole(sampleCount: samples.count, sampleRate: AudioFormat.speechAnalysis.sampleRate)
    let segments = SegmentCollector()
    let language = try run(
      timeline.join(samples), timeline: timeline, state: state, options: options, shouldAbort: shouldAbort,
      onSegment: { segments.append($0) })
    return (segments.segments, language)
  }

  /// Runs `whisper_full` over `input` (the joined signal of `timeline`) on `state`; with
  /// ``WhisperDecodingOptions/recheck``, greedily, decoding unsure segments again with the beam
  /// (a signal of one window with the beam at once).
  private func run(
    _ input: [Float], timeline: SpeechTimeline, state: OpaquePointer, options: WhisperDecodingOptions,
    shouldAbort: @escaping @Sendable () -> Bool, onSegment: @escaping @Sendable (WhisperSegment) -> Void
  ) throws(SpeechTranscriptionError) -> String? {
    // A custom language model: favoured tokens through the logits filter, commands through the
    // grammar. The filter outlives every decode below.
    let filter = options.steering.map(logitsFilter(for:))
    let callbacks = TranscriptionCallbacks(
      timeline: timeline, shouldAbort: shouldAbort, onSegment: onSegment, endOfText: whisper_token_eot(context))
    var firstPass = options
    if let recheck = options.recheck, options.beamSize > 1, !options.singleSegment,
      recheck.decodesGreedilyFirst(sampleCount: input.count, sampleRate: AudioFormat.speechAnalysis.sampleRate)
    {
      firstPass.beamSize = 1
      firstPass.bestOf = options.bestOf ?? options.beamSize
      var beamPass = options
      beamPass.recheck = nil
      callbacks.recheck = SegmentRedecoder(
        policy: recheck, context: context, input: input, timeline: timeline, options: beamPass, filter: filter,
        shouldAbort: shouldAbort)
    }
    let status = Self.decode(
      input, context: context, state: state, options: firstPass, filter: filter, callbacks: callbacks)
    if shouldAbort() { throw .cancelled }
    guard status == 0 else {
      throw .engineFailure(detail: "whisper_full returned \(status)")
    }
    withExtendedLifetime(filter) {}
    let languageID = whisper_full_lang_id_from_state(state)
    return languageID >= 0 ? whisper_lang_str(languageID).map { String(cString: $0) } : options.language
  }

  /// Calls `whisper_full` on `state` with `options`, reporting segments to `callbacks`; returns
  /// whisper.cpp's status. Only the engine thread calls this.
  fileprivate static func decode(
    _ input: [Float], context: OpaquePointer, state: OpaquePointer, options: WhisperDecodingOptions,
    filter: WhisperLogitsFilter?, callbacks: TranscriptionCallbacks
  ) -> Int32 {
    var parameters = whisper_full_default_params(
      options.beamSize > 1 ? WHISPER_SAMPLING_BEAM_SEARCH : WHISPER_SAMPLING_GREEDY)
    parameters.n_threads = Int32(options.threads)
    parameters.beam_search.beam_size = Int32(options.beamSize)
    parameters.greedy.best_of = Int32(max(options.bestOf ?? options.beamSize, 1))
    parameters.print_progress = false
    parameters.print_realtime = false
    parameters.print_timestamps = false
    parameters.print_special = false
    parameters.token_timestamps = options.tokenTimestamps
    if options.singleSegment {
      parameters.single_segment = true
      // Word times come from the timestamp tokens' probabilities: without them every word is at 0.
      parameters.no_timestamps = !options.tokenTimestamps
      parameters.no_context = true
    }
    if !options.temperatureFallback { parameters.temperature_inc = 0 }
    parameters.audio_ctx = Int32(options.audioContext)
    parameters.max_tokens = Int32(options.maximumTokens)
    parameters.suppress_nst = options.suppressNonSpeechTokens
    let language = strdup(options.language ?? "auto")
    let prompt = options.initialPrompt.map { strdup($0) }
    defer {
      free(language)
      if let prompt { free(prompt) }
    }
    parameters.language = UnsafePointer(language)
    if let prompt { parameters.initial_prompt = UnsafePointer(prompt) }
    parameters.carry_initial_prompt = options.carryInitialPrompt
    if let filter {
      parameters.logits_filter_callback = whisperFilterLogits
      parameters.logits_filter_callback_user_data = Unmanaged.passUnretained(filter).toOpaque()
      if let grammar = filter.grammar {
        parameters.grammar_rules = grammar.rules
        parameters.n_grammar_rules = grammar.ruleCount
        parameters.i_start_rule = grammar.startRule
        parameters.grammar_penalty = WhisperLogitsFilter.grammarPenalty
      }
    }
    let box = Unmanaged.passRetained(callbacks)
    defer { box.release() }
    parameters.new_segment_callback = whisperNewSegment
    parameters.new_segment_callback_user_data = box.toOpaque()
    parameters.abort_callback = whisperShouldAbort
    parameters.abort_callback_user_data = box.toOpaque()
    return whisper_full_with_state(context, state, parameters, input, Int32(input.count))
  }

  /// The logits filter for `steering`, prepared on first use and kept for the next decodes.
  private func logitsFilter(for steering: WhisperSteering) -> WhisperLogitsFilter {
    if let filter = filters[steering] { return filter }
    let vocabulary = self.vocabulary ?? WhisperVocabulary(context: context)
    self.vocabulary = vocabulary
    let context = context
    let filter = WhisperLogitsFilter(steering: steering, vocabulary: vocabulary) { text in
      var tokens = [whisper_token](repeating: 0, count: text.utf8.count + 8)
      var count = whisper_tokenize(context, text, &tokens, Int32(tokens.count))
      if count < 0 {
        tokens = [whisper_token](repeating: 0, count: Int(-count))
        count = whisper_tokenize(context, text, &tokens, Int32(tokens.count))
      }
      return Array(tokens.prefix(Int(max(count, 0))))
    }
    if filters.count >= 4 { filters.removeAll() }
    filters[steering] = filter
    return filter
  }

  /// Finds speech with the Silero model, or returns nil when VAD is off.
  private func speechTimeline(for samples: [Float], options: WhisperDecodingOptions) throws(SpeechTranscriptionError)
    -> SpeechTimeline?
  {
    guard let path = options.voiceActivityModel, samples.count > 0 else { return nil }
    if voiceActivityPath != path {
      if let voiceActivity { whisper_vad_free(voiceActivity) }
      var parameters = whisper_vad_default_context_params()
      parameters.n_threads = Int32(options.threads)
      parameters.use_gpu = false
      voiceActivity = whisper_vad_init_from_file_with_params(path, parameters)
      voiceActivityPath = path
    }
    guard let voiceActivity else {
      throw .voiceActivityModelMissing(path: path)
    }
    var parameters = whisper_vad_default_params()
    // The default 30 ms of padding clips the onset of words; a quarter second keeps them whole.
    parameters.speech_pad_ms = 250
    let segments = whisper_vad_segments_from_samples(voiceActivity, parameters, samples, Int32(samples.count))
    guard let segments else { throw .engineFailure(detail: "voice-activity detection failed") }
    defer { whisper_vad_free_segments(segments) }
    let sampleRate = AudioFormat.speechAnalysis.sampleRate
    let regions = (0..<whisper_vad_segments_n_segments(segments)).map { index -> Range<Int> in
      // Segment times are in centiseconds.
      let start = Int(Double(whisper_vad_segments_get_segment_t0(segments, index)) / 100 * sampleRate)
      let end = Int(Double(whisper_vad_segments_get_segment_t1(segments, index)) / 100 * sampleRate)
      return start..<max(start, end)
    }
    return SpeechTimeline(regions: regions, sampleCount: samples.count, sampleRate: sampleRate)
  }

  /// Routes whisper.cpp's log lines to nowhere unless `VOICENOTES_ENGINE_LOGS` is set; touch it
  /// before the first call into whisper.cpp.
  static let silenceLogs: Void = {
    if !EngineConfiguration.current.showsEngineLogs {
      whisper_log_set(whisperDiscardLog, nil)
    }
  }()
}

/// Gathers the segments of one decode; only the engine thread touches it.
private final class SegmentCollector: @unchecked Sendable {
  private(set) var segments: [WhisperSegment] = []

  func append(_ segment: WhisperSegment) { segments.append(segment) }
}

/// State shared with whisper.cpp's C callbacks through their user-data pointer.
private final class TranscriptionCallbacks: @unchecked Sendable {
  let timeline: SpeechTimeline
  /// Seconds from the start of the decoded signal to the start of `timeline`'s joined signal
  /// (negative when the signal decoded is a stretch cut from later in it).
  let offset: Double
  let shouldAbort: @Sendable () -> Bool
  let onSegment: @Sendable (WhisperSegment) -> Void
  let endOfText: Int32
  /// Decodes unsure segments again, when the decode is greedy first.
  var recheck: SegmentRedecoder?

  init(
    timeline: SpeechTimeline, offset: Double = 0, shouldAbort: @escaping @Sendable () -> Bool,
    onSegment: @escaping @Sendable (WhisperSegment) -> Void, endOfText: Int32
  ) {
    self.timeline = timeline
    self.offset = offset
    self.shouldAbort = shouldAbort
    self.onSegment = onSegment
    self.endOfText = endOfText
  }

  func time(_ centiseconds: Int64) -> Double {
    timeline.originalTime(Double(centiseconds) / 100 - offset)
  }

  func segment(_ context: OpaquePointer, _ state: OpaquePointer, _ index: Int32) -> WhisperSegment {
    var tokens: [WhisperSegment.Token] = []
    for tokenIndex in 0..<whisper_full_n_tokens_from_state(state, index) {
      let data = whisper_full_get_token_data_from_state(state, index, tokenIndex)
      guard data.id < endOfText, let text = whisper_full_get_token_text_from_state(context, state, index, tokenIndex)
      else { continue }
      let bytes = Array(
        UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text)))
      tokens.append(.init(bytes: bytes, start: time(data.t0), end: time(data.t1), probability: data.p))
    }
    return WhisperSegment(
      start: time(whisper_full_get_segment_t0_from_state(state, index)),
      end: time(whisper_full_get_segment_t1_from_state(state, index)),
      tokens: tokens,
      noSpeechProbability: whisper_full_get_segment_no_speech_prob_from_state(state, index))
  }

  /// Reports segments `indices` of `state`, the ones whisper.cpp has just decoded (a window's,
  /// or a single one), or what the recheck decodes in place of the unsure ones.
  func report(_ context: OpaquePointer, _ state: OpaquePointer, _ indices: Range<Int32>) {
    let segments = indices.map { segment(context, state, $0) }
    guard let recheck, !shouldAbort() else {
      segments.forEach(onSegment)
      return
    }
    for (index, segment) in zip(indices, segments) {
      let start = Double(whisper_full_get_segment_t0_from_state(state, index)) / 100
      let end = Double(whisper_full_get_segment_t1_from_state(state, index)) / 100
      if recheck.policy.isUnsure(segment.tokens),
        let replacement = recheck.redecode(
          segment, spanning: start...max(start, end), endsWindow: index + 1 == indices.upperBound)
      {
        replacement.forEach(onSegment)
      } else {
        recheck.heard(segment.text)
        onSegment(segment)
      }
    }
  }
}

/// Decodes the stretch of audio around an unsure segment again, with beam search, on a second
/// decoding state (the first is in the middle of its decode).
private final class SegmentRedecoder: @unchecked Sendable {
  let policy: SegmentRecheck
  private let context: OpaquePointer
  private let input: [Float]
  private let timeline: SpeechTimeline
  private let options: WhisperDecodingOptions
  private let filter: WhisperLogitsFilter?
  private let shouldAbort: @Sendable () -> Bool
  private var state: OpaquePointer?
  /// The text reported so far, the prompt that gives the beam the context the greedy decode had.
  private var previousText = ""

  init(
    policy: SegmentRecheck, context: OpaquePointer, input: [Float], timeline: SpeechTimeline,
    options: WhisperDecodingOptions, filter: WhisperLogitsFilter?, shouldAbort: @escaping @Sendable () -> Bool
  ) {
    self.policy = policy
    self.context = context
    self.input = input
    self.timeline = timeline
    self.options = options
    self.filter = filter
    self.shouldAbort = shouldAbort
  }

  deinit { if let state { whisper_free_state(state) } }

  /// Characters of the text before an unsure segment given to the beam as its prompt: a
  /// sentence or two of context (names, spelling) without the cost of Whisper's full 224-token
  /// prompt, whose logits alone take about 45 MB.
  static let promptLength = 200

  /// Notes text that was reported, as context for later decodes.
  func heard(_ text: String) {
    previousText = String((previousText + text).suffix(Self.promptLength))
  }

  /// The segments the beam hears in `segment`'s stretch of the decoded signal (`span`, seconds;
  /// `endsWindow` when it is the last of Whisper's window), or nil when the beam's text is not
  /// to be trusted over the greedy text.
  func redecode(_ segment: WhisperSegment, spanning span: ClosedRange<Double>, endsWindow: Bool) -> [WhisperSegment]? {
    let sampleRate = AudioFormat.speechAnalysis.sampleRate
    // The last segment of a window hands over to Whisper's next window, unless the signal ends
    // within a second and no window follows.
    let range = policy.audioRange(
      of: span, endsWindow: endsWindow && span.upperBound < Double(input.count) / sampleRate - 1, in: input,
      sampleRate: sampleRate)
    guard !range.isEmpty else { return nil }
    // Silence before the stretch, as before the whole signal: Whisper drops a word that starts
    // at the first sample.
    let leadIn = Int(0.3 * sampleRate)
    let prompt = [options.initialPrompt, previousText.isEmpty ? nil : previousText].compactMap { $0 }
    let found = decode(
      [Float](repeating: 0, count: leadIn) + input[range], offset: Double(leadIn - range.lowerBound) / sampleRate,
      prompt: prompt.isEmpty ? nil : prompt.joined(separator: " "))
    guard let found else { return nil }
    let text = found.map(\.text).joined()
    guard policy.accepts(text, for: segment.text) else { return nil }
    heard(text)
    return found
  }

  /// Decodes `samples` with the beam on the second state, primed with `prompt`; `offset` is
  /// seconds from their start to the start of the joined signal. Nil when the decode failed.
  private func decode(_ samples: [Float], offset: Double, prompt: String?) -> [WhisperSegment]? {
    if state == nil { state = whisper_init_state(context) }
    guard let state else { return nil }
    var options = options
    options.initialPrompt = prompt
    let found = Mutex<[WhisperSegment]>([])
    let callbacks = TranscriptionCallbacks(
      timeline: timeline, offset: offset, shouldAbort: shouldAbort,
      onSegment: { segment in found.withLock { $0.append(segment) } }, endOfText: whisper_token_eot(context))
    let status = WhisperContext.decode(
      samples, context: context, state: state, options: options, filter: filter, callbacks: callbacks)
    return status == 0 ? found.withLock { $0 } : nil
  }
}

// C callbacks live at file scope so they are not isolated to any actor; they run on the engine thread.

private func whisperNewSegment(
  _ context: OpaquePointer?, _ state: OpaquePointer?, _ newCount: Int32, _ userData: UnsafeMutableRawPointer?
) {
  guard let context, let state, let userData else { return }
  let callbacks = Unmanaged<TranscriptionCallbacks>.fromOpaque(userData).takeUnretainedValue()
  let total = whisper_full_n_segments_from_state(state)
  callbacks.report(context, state, max(total - newCount, 0)..<total)
}

private func whisperShouldAbort(_ userData: UnsafeMutableRawPointer?) -> Bool {
  guard let userData else { return false }
  return Unmanaged<TranscriptionCallbacks>.fromOpaque(userData).takeUnretainedValue().shouldAbort()
}

private func whisperDiscardLog(
  _ level: ggml_log_level, _ text: UnsafePointer<CChar>?, _ userData: UnsafeMutableRawPointer?
) {}
