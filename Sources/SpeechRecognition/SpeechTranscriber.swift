import AudioIO
import Foundation
import ModelSupport
import Synchronization

/// Turns speech into text: the speech-to-text module of a ``SpeechAnalyzer``, over whisper.cpp.
///
/// Create one for a locale, add it to an analyzer, and read ``results`` while the analyzer runs:
///
/// ```swift
/// let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription)
/// let analyzer = SpeechAnalyzer(modules: [transcriber])
/// try await analyzer.start(inputAudioFile: try AudioFile(forReading: url), finishAfterFile: true)
/// for try await result in transcriber.results where result.isFinal {
///   print(String(result.text.characters))
/// }
/// ```
///
/// With live input (``SpeechAnalyzer/start(inputSequence:)``) the transcriber splits the speech
/// into utterances at pauses, found by voice-activity detection. With `.volatileResults` it
/// publishes tentative results while an utterance is spoken (`isFinal` false, each replacing the
/// last), then a final result once the speaker pauses; every result's `range` is exactly the
/// audio it covers, so a client can replace volatile text precisely. Final results never overlap.
///
/// Beyond Apple's API, a transcriber can name its ``SpeechModel``, can be created without a
/// locale to detect the spoken language, and can follow a custom language model (see
/// ``customLanguageModel``):
///
/// ```swift
/// let configuration = SpeechLanguageModel.Configuration(languageModel: lmURL, vocabulary: nil, weight: 1)
/// try await SpeechLanguageModel.prepareCustomLanguageModel(
///   for: exportedURL, clientIdentifier: "com.example.commands", configuration: configuration)
/// let transcriber = try SpeechTranscriber(
///   locale: Locale(identifier: "en_US"), preset: .transcription, customizedLanguage: configuration)
/// // ... results say only the model's commands; result.matchedPhrase names the one heard.
/// ```
public final class SpeechTranscriber: AnalyzableModule {
  /// The language to transcribe, or nil to detect it from the audio.
  public let locale: Locale?
  /// The Whisper model that does the work.
  public let model: SpeechModel
  /// Transcription options (accepted for compatibility; Whisper already punctuates and capitalises).
  public let transcriptionOptions: Set<TranscriptionOption>
  /// Which kinds of result are published.
  public let reportingOptions: Set<ReportingOption>
  /// Which attributes are attached to runs of result text.
  public let attributeOptions: Set<ResultAttributeOption>
  /// The models folder the model is loaded from.
  public let modelDirectory: ModelDirectory
  /// The custom language model recognition follows, or nil.
  ///
  /// Our extension: Apple gives a prepared model to `DictationTranscriber` as the content hint
  /// `customizedLanguage(modelConfiguration:)` (and to `SFSpeechRecognitionRequest` as
  /// `customizedLanguageModel`); this transcriber takes it in its initializer, for file and live
  /// input alike. How it is used is ``customLanguageModelMode``: biasing keeps general speech as
  /// it was and helps the model's words and names; restricting lets only the model's commands
  /// through. Custom pronunciations apply in both, and results that say one of the model's
  /// phrases carry it in ``Result/matchedPhrase``.
  public let customLanguageModel: SpeechLanguageModel?
  /// How ``customLanguageModel`` is used (from the configuration's weight when given one).
  public let customLanguageModelMode: SpeechLanguageModel.Mode
  private let ownSteering: LanguageModelSteering?
  private let contextSteering = Mutex<LanguageModelSteering?>(nil)
  private let published = Mutex(CMTime.zero)

  /// The results, in audio order, ending when the analyzer finishes (or with the error that stopped it).
  public let results: AsyncThrowingStream<Result, any Error>
  private let continuation: AsyncThrowingStream<Result, any Error>.Continuation
  private let detected = Mutex<String?>(nil)

  /// Creates a transcriber for `locale` configured by `preset`, using the default model.
  public convenience init(locale: Locale, preset: Preset) {
    self.init(
      locale: locale, transcriptionOptions: preset.transcriptionOptions, reportingOptions: preset.reportingOptions,
      attributeOptions: preset.attributeOptions)
  }

  /// Creates a transcriber for `locale` with explicit options, using the default model.
  public convenience init(
    locale: Locale, transcriptionOptions: Set<TranscriptionOption>, reportingOptions: Set<ReportingOption>,
    attributeOptions: Set<ResultAttributeOption>
  ) {
    self.init(
      model: .default, locale: locale, transcriptionOptions: transcriptionOptions,
      reportingOptions: reportingOptions, attributeOptions: attributeOptions)
  }

  /// Creates a transcriber for `locale` configured by `preset` that follows the custom language
  /// model prepared into `modelConfiguration`, in the mode its weight selects (our extension; the
  /// counterpart of Apple's `DictationTranscriber.ContentHint.customizedLanguage(modelConfiguration:)`).
  ///
  /// - Throws: ``CustomLanguageModelError`` when the prepared files are missing or damaged (prepare
  ///   them with ``SpeechLanguageModel/prepareCustomLanguageModel(for:clientIdentifier:configuration:ignoresCache:)``).
  public convenience init(
    locale: Locale, preset: Preset, customizedLanguage modelConfiguration: SpeechLanguageModel.Configuration
  ) throws {
    try self.init(
      model: .default, locale: locale, transcriptionOptions: preset.transcriptionOptions,
      reportingOptions: preset.reportingOptions, attributeOptions: preset.attributeOptions,
      customizedLanguage: modelConfiguration)
  }

  /// Creates a transcriber that uses `model` and follows the custom language model prepared into
  /// `modelConfiguration`, in the mode its weight selects (our extension).
  ///
  /// - Throws: ``CustomLanguageModelError`` when the prepared files are missing or damaged.
  public convenience init(
    model: SpeechModel, locale: Locale?, transcriptionOptions: Set<TranscriptionOption> = [],
    reportingOptions: Set<ReportingOption> = [], attributeOptions: Set<ResultAttributeOption> = [],
    modelDirectory: ModelDirectory = .current, customizedLanguage modelConfiguration: SpeechLanguageModel.Configuration
  ) throws {
    self.init(
      model: model, locale: locale, transcriptionOptions: transcriptionOptions, reportingOptions: reportingOptions,
      attributeOptions: attributeOptions, modelDirectory: modelDirectory,
      customLanguageModel: try SpeechLanguageModel(configuration: modelConfiguration),
      customLanguageModelMode: modelConfiguration.mode)
  }

  /// Creates a transcriber that uses `model`; a nil `locale` detects the spoken language (or takes
  /// the custom language model's, when there is one).
  ///
  /// - Parameters:
  ///   - customLanguageModel: a prepared (or compiled) custom language model to follow, or nil;
  ///     our extension, see ``customLanguageModel``.
  ///   - customLanguageModelMode: how to follow it: `.bias(strength:)` or `.restrict`.
  public init(
    model: SpeechModel, locale: Locale?, transcriptionOptions: Set<TranscriptionOption> = [],
    reportingOptions: Set<ReportingOption> = [], attributeOptions: Set<ResultAttributeOption> = [],
    modelDirectory: ModelDirectory = .current, customLanguageModel: SpeechLanguageModel? = nil,
    customLanguageModelMode: SpeechLanguageModel.Mode = .bias(strength: SpeechLanguageModel.Configuration.defaultWeight)
  ) {
    self.model = model
    self.locale = locale
    self.transcriptionOptions = transcriptionOptions
    self.reportingOptions = reportingOptions
    self.attributeOptions = attributeOptions
    self.modelDirectory = modelDirectory
    self.customLanguageModel = customLanguageModel
    self.customLanguageModelMode = customLanguageModelMode
    ownSteering = customLanguageModel.map { LanguageModelSteering(model: $0, mode: customLanguageModelMode) }
    (results, continuation) = AsyncThrowingStream.makeStream(of: Result.self)
  }

  /// The language of the last analysis: the one asked for, or the one detected.
  public var detectedLanguage: String? { detected.withLock { $0 } }

  /// 16 kHz mono, the only format Whisper consumes.
  public var availableCompatibleAudioFormats: [AudioFormat] {
    get async { [.speechAnalysis] }
  }

  // MARK: - Availability and languages

  /// Whether this machine can run the speech engine (an x86-64 CPU with AVX2, FMA and F16C, for
  /// which the engine is built).
  public static var isAvailable: Bool { unavailabilityReason == nil }

  /// Why ``isAvailable`` is false, or nil when it is true.
  static var unavailabilityReason: String? { EngineHost.unsupportedReason }

  /// The locales the default model transcribes.
  public static var supportedLocales: [Locale] {
    get async { supportedLocales(for: .default) }
  }

  /// The locales `model` transcribes.
  ///
  /// Each language appears bare (`en`) and with every region Foundation knows for it (`en_US`,
  /// `en_GB`, ...), as Apple lists regional locales: Whisper reads every region of a language alike.
  public static func supportedLocales(for model: SpeechModel) -> [Locale] {
    regionalLocales(for: languageCodes(for: model))
  }

  /// `codes` as bare locales, then each with the regions Foundation knows for it.
  private static func regionalLocales(for codes: [String]) -> [Locale] {
    let wanted = Set(codes)
    let regional = Locale.availableIdentifiers.filter { identifier in
      let parts = identifier.split(separator: "_")
      return parts.count == 2 && parts[1].count == 2 && wanted.contains(String(parts[0]))
    }
    return codes.sorted().map { Locale(identifier: $0) } + regional.sorted().map { Locale(identifier: $0) }
  }

  /// The locales whose models are installed in the current models folder.
  public static var installedLocales: [Locale] {
    get async {
      let directory = ModelDirectory.current
      let installed = SpeechModel.all.filter { FileManager.default.fileExists(atPath: directory.file(for: $0).path) }
      return regionalLocales(for: Array(Set(installed.flatMap(languageCodes(for:)))))
    }
  }

  /// The supported locale that matches `locale`'s language, or nil when none does.
  public static func supportedLocale(equivalentTo locale: Locale) async -> Locale? {
    supportedLocale(equivalentTo: locale, model: .default)
  }

  /// The locale of `model` that matches `locale`'s language, or nil when none does.
  public static func supportedLocale(equivalentTo locale: Locale, model: SpeechModel) -> Locale? {
    guard let code = languageCode(of: locale), languageCodes(for: model).contains(code) else { return nil }
    return Locale(identifier: code)
  }

  static func languageCode(of locale: Locale) -> String? {
    if let code = locale.language.languageCode?.identifier { return code.lowercased() }
    let prefix = locale.identifier.split(whereSeparator: { $0 == "_" || $0 == "-" }).first.map(String.init)
    return prefix?.lowercased()
  }

  private static func languageCodes(for model: SpeechModel) -> [String] {
    model.isMultilingual ? WhisperContext.languageCodes : ["en"]
  }

  // MARK: - Analysis

  func checkReady() throws {
    if let reason = Self.unavailabilityReason { throw SpeechTranscriptionError.unavailable(reason: reason) }
    if let locale, Self.supportedLocale(equivalentTo: locale, model: model) == nil {
      throw SpeechTranscriptionError.unsupportedLocale(locale, model: model.name)
    }
    guard FileManager.default.fileExists(atPath: modelDirectory.file(for: model).path) else {
      throw SpeechTranscriptionError.modelNotInstalled(model: model.name)
    }
  }

  /// The language to decode: the transcriber's, else the custom language model's, else nil (detect).
  private var decodingLanguage: String? {
    locale.flatMap(Self.languageCode(of:)) ?? customLanguageModel.flatMap { Self.languageCode(of: $0.locale) }
  }

  func analyze(_ audio: AudioBuffer, shouldAbort: @escaping @Sendable () -> Bool) async throws {
    try checkReady()
    let context = try WhisperContext.shared(modelAt: modelDirectory.file(for: model).path)
    let standard = WhisperDecodingOptions.standard(
      language: decodingLanguage, voiceActivityModel: modelDirectory.voiceActivityModel?.path)
    let language: String?
    if let steering, let promptGuard = steering.promptGuard {
      language = try await analyzeGuarded(
        audio, context: context, standard: standard, steering: steering, promptGuard: promptGuard,
        shouldAbort: shouldAbort)
    } else {
      var options = standard
      steering?.apply(to: &options, isFinal: true)
      language = try await analyzeStreaming(audio, context: context, options: options, shouldAbort: shouldAbort)
    }
    detected.withLock { $0 = language }
  }

  /// One decode, its segments published as they come.
  private func analyzeStreaming(
    _ audio: AudioBuffer, context: WhisperContext, options: WhisperDecodingOptions,
    shouldAbort: @escaping @Sendable () -> Bool
  ) async throws -> String? {
    let attributes = attributeOptions
    let continuation = continuation
    let steering = steering
    // Segments come from the engine thread as they are decoded; results are made here, where the
    // custom language model's rewriting may wait for the phonemizer.
    let (segments, segmentInput) = AsyncStream.makeStream(of: WhisperSegment.self)
    return try await withThrowingTaskGroup(of: String?.self) { group in
      group.addTask {
        defer { segmentInput.finish() }
        return try await context.transcribe(
          audio.samples, options: options, shouldAbort: { shouldAbort() || Task.isCancelled },
          onSegment: { segmentInput.yield($0) })
      }
      for await segment in segments {
        let result = try await Result(
          words: Result.words(of: segment.tokens), range: Self.range(of: segment),
          resultsFinalizationTime: Self.range(of: segment).end, attributes: attributes, steering: steering)
        if !result.text.characters.isEmpty { continuation.yield(result) }
        published.withLock { $0 = max($0, result.range.end) }
      }
      return try await group.next() ?? nil
    }
  }

  /// Biasing with a prompt: a decode without the prompt, one with it, and the prompted words kept
  /// only where they bring in the model's words (see ``PromptedTextGuard``); published at the end.
  private func analyzeGuarded(
    _ audio: AudioBuffer, context: WhisperContext, standard: WhisperDecodingOptions, steering: LanguageModelSteering,
    promptGuard: PromptedTextGuard, shouldAbort: @escaping @Sendable () -> Bool
  ) async throws -> String? {
    var plainOptions = standard
    steering.apply(to: &plainOptions, isFinal: true, prompted: false)
    var promptedOptions = standard
    steering.apply(to: &promptedOptions, isFinal: true, prompted: true)
    let plain = Mutex<[WhisperSegment]>([])
    let language = try await context.transcribe(audio.samples, options: plainOptions, shouldAbort: shouldAbort) {
      segment in plain.withLock { $0.append(segment) }
    }
    let prompted = Mutex<[WhisperSegment]>([])
    _ = try await context.transcribe(audio.samples, options: promptedOptions, shouldAbort: shouldAbort) { segment in
      prompted.withLock { $0.append(segment) }
    }
    let segments = plain.withLock { $0 }
    let merged = promptGuard.merge(
      plain: segments.map { Result.words(of: $0.tokens) },
      prompted: prompted.withLock { $0 }.flatMap { Result.words(of: $0.tokens) })
    for (segment, words) in zip(segments, merged) {
      let result = try await Result(
        words: words, range: Self.range(of: segment), resultsFinalizationTime: Self.range(of: segment).end,
        attributes: attributeOptions, steering: steering)
      if !result.text.characters.isEmpty { continuation.yield(result) }
      published.withLock { $0 = max($0, result.range.end) }
    }
    return language
  }

  /// The audio a decoded segment covers.
  private static func range(of segment: WhisperSegment) -> CMTimeRange {
    CMTimeRange(
      start: CMTime(seconds: segment.start, preferredTimescale: 1000),
      end: CMTime(seconds: max(segment.end, segment.start), preferredTimescale: 1000))
  }

  var voiceActivityModelPath: String { modelDirectory.file(named: VoiceActivityDetector.modelFileName).path }

  func makeLiveAnalysis(shouldAbort: @escaping @Sendable () -> Bool) throws -> any LiveModuleAnalysis {
    try checkReady()
    let context = try WhisperContext.shared(modelAt: modelDirectory.file(for: model).path)
    return LiveTranscription(
      context: context, language: decodingLanguage,
      reportsVolatileResults: reportingOptions.contains(.volatileResults), attributes: attributeOptions,
      steering: steering,
      policy: reportingOptions.contains(.frequentFinalization) ? .frequent : .standard,
      continuation: continuation, shouldAbort: shouldAbort,
      onLanguage: { [weak self] detected in
        guard let self, let detected else { return }
        self.detected.withLock { $0 = detected }
      })
  }

  /// The custom language model recognition follows: the transcriber's own, else the one an
  /// analysis context's contextual strings made.
  private var steering: LanguageModelSteering? { ownSteering ?? contextSteering.withLock { $0 } }

  func apply(contextualStrings: [String]) throws {
    let model = try SpeechLanguageModel(biasingToward: contextualStrings, locale: locale ?? Locale(identifier: "en_US"))
    contextSteering.withLock {
      $0 = model.map {
        LanguageModelSteering(model: $0, mode: .bias(strength: SpeechLanguageModel.Configuration.defaultWeight))
      }
    }
  }

  var publishedThrough: CMTime { published.withLock { $0 } }

  func prepare() throws {
    try checkReady()
    _ = try WhisperContext.shared(modelAt: modelDirectory.file(for: model).path)
  }

  func finishResults(throwing error: (any Error)?) {
    continuation.finish(throwing: error)
  }
}
