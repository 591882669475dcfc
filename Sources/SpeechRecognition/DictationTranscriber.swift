import AudioIO
import Foundation

/// Speech-to-text for dictation, as Speech 26's `DictationTranscriber`: the same Whisper engine
/// as ``SpeechTranscriber``, with dictation's presets and content hints.
///
/// ```swift
/// let transcriber = DictationTranscriber(locale: Locale(identifier: "en_US"), preset: .shortDictation)
/// let analyzer = SpeechAnalyzer(modules: [transcriber])
/// try await analyzer.start(inputAudioFile: file, finishAfterFile: true)
/// for try await result in transcriber.results { print(String(result.text.characters)) }
/// ```
///
/// Differences on Linux: without `.punctuation` the text's punctuation is removed (Whisper always
/// punctuates); `.customizedLanguage(modelConfiguration:)` makes recognition follow a prepared
/// custom language model, and a model that cannot be read makes analysis fail with the reason;
/// the other hints are kept but do not change the result.
public final class DictationTranscriber: AnalyzableModule, LocaleDependentSpeechModule {
  /// The results, in audio order: ``SpeechTranscriber``'s results.
  public typealias Result = SpeechTranscriber.Result

  /// The language transcribed.
  public let locale: Locale
  /// The hints given.
  public let contentHints: Set<ContentHint>
  /// The transcription options given.
  public let transcriptionOptions: Set<TranscriptionOption>
  /// The reporting options given.
  public let reportingOptions: Set<ReportingOption>
  /// The attribute options given.
  public let attributeOptions: Set<ResultAttributeOption>
  /// The results, ending when the analyzer finishes (or with the error that stopped it).
  public let results: AsyncThrowingStream<Result, any Error>

  private let transcriber: SpeechTranscriber
  private let setUpError: (any Error)?

  /// A transcriber for `locale` configured by `preset`.
  public convenience init(locale: Locale, preset: Preset) {
    self.init(
      locale: locale, contentHints: preset.contentHints, transcriptionOptions: preset.transcriptionOptions,
      reportingOptions: preset.reportingOptions, attributeOptions: preset.attributeOptions)
  }

  /// A transcriber for `locale` with explicit hints and options.
  public init(
    locale: Locale, contentHints: Set<ContentHint>, transcriptionOptions: Set<TranscriptionOption>,
    reportingOptions: Set<ReportingOption>, attributeOptions: Set<ResultAttributeOption>
  ) {
    self.locale = locale
    self.contentHints = contentHints
    self.transcriptionOptions = transcriptionOptions
    self.reportingOptions = reportingOptions
    self.attributeOptions = attributeOptions
    var reporting: Set<SpeechTranscriber.ReportingOption> = []
    if reportingOptions.contains(.volatileResults) { reporting.insert(.volatileResults) }
    if reportingOptions.contains(.alternativeTranscriptions) { reporting.insert(.alternativeTranscriptions) }
    if reportingOptions.contains(.frequentFinalization) { reporting.insert(.frequentFinalization) }
    var attributes: Set<SpeechTranscriber.ResultAttributeOption> = []
    if attributeOptions.contains(.audioTimeRange) { attributes.insert(.audioTimeRange) }
    if attributeOptions.contains(.transcriptionConfidence) { attributes.insert(.transcriptionConfidence) }
    var customModel: SpeechLanguageModel?
    var mode = SpeechLanguageModel.Mode.bias(strength: SpeechLanguageModel.Configuration.defaultWeight)
    var failure: (any Error)?
    for hint in contentHints {
      guard case .customizedLanguage(let configuration) = hint.kind else { continue }
      do {
        customModel = try SpeechLanguageModel(configuration: configuration)
        mode = configuration.mode
      } catch {
        failure = error
      }
    }
    transcriber = SpeechTranscriber(
      model: .default, locale: locale, reportingOptions: reporting, attributeOptions: attributes,
      customLanguageModel: customModel, customLanguageModelMode: mode)
    setUpError = failure
    let punctuated = transcriptionOptions.contains(.punctuation)
    let source = transcriber.results
    results = AsyncThrowingStream { continuation in
      let forwarding = Task {
        do {
          for try await result in source { continuation.yield(punctuated ? result : Self.unpunctuated(result)) }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in forwarding.cancel() }
    }
  }

  /// The locales the default model transcribes.
  public static var supportedLocales: [Locale] {
    get async { await SpeechTranscriber.supportedLocales }
  }

  /// The locales whose models are installed.
  public static var installedLocales: [Locale] {
    get async { await SpeechTranscriber.installedLocales }
  }

  /// The locale the transcriber was made for.
  public var selectedLocales: [Locale] { [locale] }

  /// The supported locale that matches `locale`'s language, or nil.
  public static func supportedLocale(equivalentTo locale: Locale) async -> Locale? {
    await SpeechTranscriber.supportedLocale(equivalentTo: locale)
  }

  /// 16 kHz mono, the only format Whisper consumes.
  public var availableCompatibleAudioFormats: [AudioFormat] {
    get async { [.speechAnalysis] }
  }

  /// `result` with the punctuation removed from its text (attributes on the words kept).
  private static func unpunctuated(_ result: Result) -> Result {
    var result = result
    var text = AttributedString()
    for run in result.text.runs {
      var replacement = AttributedString(String(result.text[run.range].characters).withoutPunctuation)
      replacement.mergeAttributes(run.attributes)
      text += replacement
    }
    result.text = text
    return result
  }

  func checkReady() throws {
    if let setUpError { throw setUpError }
    try transcriber.checkReady()
  }

  func analyze(_ audio: AudioBuffer, at offset: Double, shouldAbort: @escaping @Sendable () -> Bool) async throws {
    try checkReady()
    try await transcriber.analyze(audio, at: offset, shouldAbort: shouldAbort)
  }

  func finishResults(throwing error: (any Error)?) { transcriber.finishResults(throwing: error) }

  func cancelResults(before time: CMTime) { transcriber.cancelResults(before: time) }

  var voiceActivityModelPath: String { transcriber.voiceActivityModelPath }

  func makeLiveAnalysis(shouldAbort: @escaping @Sendable () -> Bool) throws -> any LiveModuleAnalysis {
    try checkReady()
    return try transcriber.makeLiveAnalysis(shouldAbort: shouldAbort)
  }

  func prepare() throws {
    try checkReady()
    try transcriber.prepare()
  }

  func apply(contextualStrings: [String]) throws { try transcriber.apply(contextualStrings: contextualStrings) }

  var publishedThrough: CMTime { transcriber.publishedThrough }
}
