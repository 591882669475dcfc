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
/// Beyond Apple's API, a transcriber can name its ``SpeechModel`` and can be created without a
/// locale to detect the spoken language.
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

  /// Creates a transcriber that uses `model`; a nil `locale` detects the spoken language.
  public init(
    model: SpeechModel, locale: Locale?, transcriptionOptions: Set<TranscriptionOption> = [],
    reportingOptions: Set<ReportingOption> = [], attributeOptions: Set<ResultAttributeOption> = [],
    modelDirectory: ModelDirectory = .current
  ) {
    self.model = model
    self.locale = locale
    self.transcriptionOptions = transcriptionOptions
    self.reportingOptions = reportingOptions
    self.attributeOptions = attributeOptions
    self.modelDirectory = modelDirectory
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
  public static func supportedLocales(for model: SpeechModel) -> [Locale] {
    languageCodes(for: model).map { Locale(identifier: $0) }
  }

  /// The locales whose models are installed in the current models folder.
  public static var installedLocales: [Locale] {
    get async {
      let directory = ModelDirectory.current
      let installed = SpeechModel.all.filter { FileManager.default.fileExists(atPath: directory.file(for: $0).path) }
      return Array(Set(installed.flatMap(languageCodes(for:)))).sorted().map { Locale(identifier: $0) }
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

  func analyze(_ audio: AudioBuffer, shouldAbort: @escaping @Sendable () -> Bool) async throws {
    try checkReady()
    let context = try WhisperContext.shared(modelAt: modelDirectory.file(for: model).path)
    let options = WhisperDecodingOptions.standard(
      language: locale.flatMap(Self.languageCode(of:)),
      voiceActivityModel: modelDirectory.voiceActivityModel?.path)
    let attributes = attributeOptions
    let continuation = continuation
    let language = try await context.transcribe(audio.samples, options: options, shouldAbort: shouldAbort) { segment in
      if let result = Result(segment: segment, attributes: attributes) {
        continuation.yield(result)
      }
    }
    detected.withLock { $0 = language }
  }

  var voiceActivityModelPath: String { modelDirectory.file(named: VoiceActivityDetector.modelFileName).path }

  func makeLiveAnalysis(shouldAbort: @escaping @Sendable () -> Bool) throws -> any LiveModuleAnalysis {
    try checkReady()
    let context = try WhisperContext.shared(modelAt: modelDirectory.file(for: model).path)
    let language = locale.flatMap(Self.languageCode(of:))
    return LiveTranscription(
      context: context, language: language, reportsVolatileResults: reportingOptions.contains(.volatileResults),
      attributes: attributeOptions,
      policy: reportingOptions.contains(.frequentFinalization) ? .frequent : .standard,
      continuation: continuation, shouldAbort: shouldAbort,
      onLanguage: { [weak self] detected in
        guard let self, let detected else { return }
        self.detected.withLock { $0 = detected }
      })
  }

  func finishResults(throwing error: (any Error)?) {
    continuation.finish(throwing: error)
  }
}
