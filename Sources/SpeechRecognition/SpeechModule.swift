import AudioIO

/// A kind of analysis a ``SpeechAnalyzer`` runs over audio, such as ``SpeechTranscriber``.
///
/// As in Apple's Speech framework, modules are added to an analyzer and publish their own
/// results; the analyzer feeds them audio.
public protocol SpeechModule: AnyObject, Sendable {
  /// What the module publishes.
  associatedtype Result: SpeechModuleResult, Sendable where Result == Results.Element
  /// The sequence it publishes them in.
  associatedtype Results: Sendable, AsyncSequence

  /// The module's results, in the order it publishes them; the sequence ends when the analysis
  /// finishes, throwing the error that ended it if one did.
  var results: Results { get }

  /// The audio formats the module accepts without conversion.
  var availableCompatibleAudioFormats: [AudioFormat] { get async }
}

/// A result a speech module publishes: which audio it covers and whether it can still change.
public protocol SpeechModuleResult: Sendable {
  /// The span of audio this result describes.
  var range: CMTimeRange { get }
  /// Audio before this time will produce no further changes to results.
  var resultsFinalizationTime: CMTime { get }
}

extension SpeechModuleResult {
  /// Whether the result is final: it will not be replaced by a later one for the same audio.
  public var isFinal: Bool { resultsFinalizationTime >= range.end }
}

/// What the analyzer needs from a module to drive it; kept internal so the public protocol stays
/// Apple's shape.
protocol AnalyzableModule: SpeechModule {
  /// Analyzes a stretch of a 16 kHz mono recording that starts `offset` seconds into it (a
  /// whole recording starts at 0), publishing results as they are produced, with times in the
  /// recording. A recording is analysed in order, one stretch after another.
  func analyze(_ audio: AudioBuffer, at offset: Double, shouldAbort: @escaping @Sendable () -> Bool) async throws
  /// Ends the module's result stream, with `error` if analysis failed.
  func finishResults(throwing error: (any Error)?)
  /// Throws when the module cannot run (a model is missing, a locale unsupported).
  func checkReady() throws
  /// The Silero voice-activity model the module's live analysis needs.
  var voiceActivityModelPath: String { get }
  /// Prepares to analyse live input (loading models), publishing into the module's results;
  /// throws when the module cannot run.
  func makeLiveAnalysis(shouldAbort: @escaping @Sendable () -> Bool) throws -> any LiveModuleAnalysis
  /// Loads what analysis needs (the model), so the first audio is analysed without that wait.
  func prepare() throws
  /// Biases recognition toward `contextualStrings` (an analysis context's words), from the next
  /// analysis on; an empty list removes the bias.
  func apply(contextualStrings: [String]) throws
  /// The end of the audio whose results a file analysis has published so far.
  var publishedThrough: CMTime { get }
  /// From now on, a file analysis does not publish results of audio that ends by `time`.
  func cancelResults(before time: CMTime)
}

extension AnalyzableModule {
  func prepare() throws { try checkReady() }
  func apply(contextualStrings: [String]) throws {}
  var publishedThrough: CMTime { CMTime(value: .max, timescale: 1) }
  func cancelResults(before time: CMTime) {}
}
