import AudioIO
import Foundation
import ModelSupport
import Synchronization

/// Turns speech into text: the speech-to-text module of a ``SpeechAnalyzer``, over whisper.cpp
/// or an OpenAI-compatible transcription server.
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
/// Files are transcribed by the transcriber's ``backend``: the local whisper.cpp engine unless
/// `EngineConfiguration.current.transcriptionServer` names a server (or the transcriber is
/// created with one, see ``init(locale:preset:backend:)``). Live input is always transcribed by
/// the local engine.
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
public final class SpeechTranscriber: AnalyzableModule, LocaleDependentSpeechModule {
  /// The language to transcribe, or nil to detect it from the audio.
  public let locale: Locale?
  /// The Whisper model that does the work on this machine (live input always; files when
  /// ``backend`` is the local engine).
  public let model: SpeechModel
  /// What transcribes files: ``WhisperBackend`` on this machine, or a server.
  public let backend: any TranscriptionBackend
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
  /// Results of audio that ends by this time are not published, and a file's windows that end by
  /// then are not decoded (`cancelAnalysis(before:)`).
  private let unwantedBefore = Mutex(CMTime.zero)

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

  /// Creates a transcriber for `locale` configured by `preset` whose files are transcribed by
  /// `backend`, such as an ``OpenAITranscriptionBackend`` (our extension).
  ///
  /// ```swift
  /// let server = OpenAITranscriptionBackend(endpoint: .init(url: URL(string: "http://gpu-box:8080")!))
  /// let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription, backend: server)
  /// ```
  public convenience init(locale: Locale, preset: Preset, backend: any TranscriptionBackend) {
    self.init(
      model: .default, locale: locale, transcriptionOptions: preset.transcriptionOptions,
      reportingOptions: preset.reportingOptions, attributeOptions: preset.attributeOptions, backend: backend)
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
    modelDirectory: ModelDirectory = .current, customizedLanguage modelConfiguration: SpeechLanguageModel.Configuration,
    backend: (any TranscriptionBackend)? = nil
  ) throws {
    self.init(
      model: model, locale: locale, transcriptionOptions: transcriptionOptions, reportingOptions: reportingOptions,
      attributeOptions: attributeOptions, modelDirectory: modelDirectory,
      customLanguageModel: try SpeechLanguageModel(configuration: modelConfiguration),
      customLanguageModelMode: modelConfiguration.mode, backend: backend)
  }

  /// Creates a transcriber that uses `model`; a nil `locale` detects the spoken language (or takes
  /// the custom language model's, when there is one).
  ///
  /// - Parameters:
  ///   - customLanguageModel: a prepared (or compiled) custom language model to follow, or nil;
  ///     our extension, see ``customLanguageModel``.
  ///   - customLanguageModelMode: how to follow it: `.bias(strength:)` or `.restrict`.
  ///   - backend: what transcribes files; nil for the server
  ///     `EngineConfiguration.current.transcriptionServer` names, else `model` on this machine.
  public init(
    model: SpeechModel, locale: Locale?, transcriptionOptions: Set<TranscriptionOption> = [],
    reportingOptions: Set<ReportingOption> = [], attributeOptions: Set<ResultAttributeOption> = [],
    modelDirectory: ModelDirectory = .current, customLanguageModel: SpeechLanguageModel? = nil,
    customLanguageModelMode: SpeechLanguageModel.Mode = .bias(
      strength: SpeechLanguageModel.Configuration.defaultWeight),
    backend: (any TranscriptionBackend)? = nil
  ) {
    self.model = model
    self.backend = backend ?? Self.configuredBackend(model: model, modelDirectory: modelDirectory)
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

  /// The backend the configuration selects: its transcription server, else `model` on this machine.
  static func configuredBackend(model: SpeechModel, modelDirectory: ModelDirectory) -> any TranscriptionBackend {
    if let server = EngineConfiguration.current.transcriptionServer {
      return OpenAITranscriptionBackend(endpoint: server)
    }
    return WhisperBackend(model: model, modelDirectory: modelDirectory)
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

  /// The locale the transcriber was made for; empty when it detects the language itself.
  public var selectedLocales: [Locale] { locale.map { [$0] } ?? [] }

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
    try backend.checkReady(locale: locale)
  }

  /// Throws when the local engine cannot run live input for this transcriber.
  private func checkLocalReady() throws {
    try WhisperBackend(model: model, modelDirectory: modelDirectory)
      .checkReady(locale: locale)
  }

  /// The language to decode: the transcriber's, else the custom language model's, else nil (detect).
  private var decodingLanguage: String? {
    locale.flatMap(Self.languageCode(of:)) ?? customLanguageModel.flatMap { Self.languageCode(of: $0.locale) }
  }

  func analyze(_ audio: AudioBuffer, at offset: Double, shouldAbort: @escaping @Sendable () -> Bool) async throws {
    try checkReady()
    // A window that ends before the time given to cancelAnalysis(before:) is not decoded at all.
    let end = CMTime(seconds: offset + audio.duration, preferredTimescale: 16_000)
    if end <= unwantedBefore.withLock({ $0 }) {
      published.withLock { $0 = max($0, end) }
      return
    }
    let steering = steering
    // Later stretches of a recording are decoded in the language the first was found to be in.
    let requestedLanguage = decodingLanguage ?? (offset > 0 ? detected.withLock { $0 } : nil)
    let request = TranscriptionRequest(
      language: requestedLanguage, prompt: nil, wantsWordTimestamps: true, steering: steering)
    let attributes = attributeOptions
    let continuation = continuation
    let backend = backend
    // Segments come from the backend (an engine thread, a network reply) as they are ready;
    // results are made here, where the custom language model's rewriting may wait for the phonemizer.
    let (segments, segmentInput) = AsyncStream.makeStream(of: TranscribedSegment.self)
    let language = try await withThrowingTaskGroup(of: String?.self) { group in
      group.addTask {
        defer { segmentInput.finish() }
        return try await backend.transcribe(
          audio, request: request, shouldAbort: shouldAbort,
          onSegment: { segmentInput.yield(offset > 0 ? $0.offset(by: offset) : $0) })
      }
      for await segment in segments {
        let range = Self.range(of: segment)
        let words =
          segment.words.isEmpty
          ? [TranscribedSegment.Word(text: segment.text, start: segment.start, end: segment.end)] : segment.words
        let result = try await Result(
          words: words, range: range, resultsFinalizationTime: range.end, attributes: attributes, steering: steering)
        if !result.text.characters.isEmpty, result.range.end > unwantedBefore.withLock({ $0 }) {
          continuation.yield(result)
        }
        published.withLock { $0 = max($0, result.range.end) }
      }
      return try await group.next() ?? nil
    }
    detected.withLock { $0 = language ?? requestedLanguage }
  }

  /// The audio a segment covers.
  private static func range(of segment: TranscribedSegment) -> CMTimeRange {
    CMTimeRange(
      start: CMTime(seconds: segment.start, preferredTimescale: 1000),
      end: CMTime(seconds: max(segment.end, segment.start), preferredTimescale: 1000))
  }

  var voiceActivityModelPath: String { modelDirectory.file(named: VoiceActivityDetector.modelFileName).path }

  func makeLiveAnalysis(shouldAbort: @escaping @Sendable () -> Bool) throws -> any LiveModuleAnalysis {
    try checkLocalReady()
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

  func cancelResults(before time: CMTime) {
    unwantedBefore.withLock { $0 = max($0, time) }
  }

  func prepare() throws {
    try checkReady()
    try backend.prepare()
  }

  func finishResults(throwing error: (any Error)?) {
    continuation.finish(throwing: error)
  }
}
