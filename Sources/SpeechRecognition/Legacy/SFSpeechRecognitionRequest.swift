import Foundation
import Synchronization

/// What to recognize and how: the settings shared by file and live requests.
///
/// Differences on Linux: recognition is always on the machine, so `requiresOnDeviceRecognition`
/// changes nothing; `contextualStrings` bias recognition toward those words and names (as the
/// library's vocabulary does); `taskHint` is kept but does not change the result.
open class SFSpeechRecognitionRequest: @unchecked Sendable {
  private struct Settings {
    var shouldReportPartialResults = true
    var requiresOnDeviceRecognition = false
    var taskHint = SFSpeechRecognitionTaskHint.unspecified
    var contextualStrings: [String] = []
    var interactionIdentifier: String?
    var addsPunctuation = false
    var customizedLanguageModel: SpeechLanguageModel.Configuration?
  }
  private let settings = Mutex(Settings())

  /// Creates a request with Apple's defaults.
  public init() {}

  /// Whether the handler hears partial results while speech comes in (default true).
  public var shouldReportPartialResults: Bool {
    get { settings.withLock { $0.shouldReportPartialResults } }
    set { settings.withLock { $0.shouldReportPartialResults = newValue } }
  }

  /// Whether audio must stay on the device (it always does here).
  public var requiresOnDeviceRecognition: Bool {
    get { settings.withLock { $0.requiresOnDeviceRecognition } }
    set { settings.withLock { $0.requiresOnDeviceRecognition = newValue } }
  }

  /// The kind of speech expected (kept; see the type's notes).
  public var taskHint: SFSpeechRecognitionTaskHint {
    get { settings.withLock { $0.taskHint } }
    set { settings.withLock { $0.taskHint = newValue } }
  }

  /// Words and phrases likely to be said, such as names: recognition is biased toward them.
  public var contextualStrings: [String] {
    get { settings.withLock { $0.contextualStrings } }
    set { settings.withLock { $0.contextualStrings = newValue } }
  }

  /// An identifier for the interaction the request belongs to (kept, unused).
  public var interactionIdentifier: String? {
    get { settings.withLock { $0.interactionIdentifier } }
    set { settings.withLock { $0.interactionIdentifier = newValue } }
  }

  /// Whether results are punctuated (default false, as on Apple's platforms: Whisper's
  /// punctuation is removed unless this is set).
  public var addsPunctuation: Bool {
    get { settings.withLock { $0.addsPunctuation } }
    set { settings.withLock { $0.addsPunctuation = newValue } }
  }

  /// A custom language model prepared with
  /// `SFSpeechLanguageModel.prepareCustomLanguageModel(for:clientIdentifier:configuration:)`:
  /// recognition follows it, restricted to its phrases when its weight is 1 and biased toward
  /// them otherwise.
  public var customizedLanguageModel: SpeechLanguageModel.Configuration? {
    get { settings.withLock { $0.customizedLanguageModel } }
    set { settings.withLock { $0.customizedLanguageModel = newValue } }
  }

  /// The custom language model and mode a transcriber for this request follows: the prepared
  /// model when there is one, else one biased toward the contextual strings, else none.
  func steering(locale: Locale) throws -> (model: SpeechLanguageModel, mode: SpeechLanguageModel.Mode)? {
    if let configuration = customizedLanguageModel {
      return (try SpeechLanguageModel(configuration: configuration), configuration.mode)
    }
    guard let model = try SpeechLanguageModel(biasingToward: contextualStrings, locale: locale) else { return nil }
    return (model, .bias(strength: SpeechLanguageModel.Configuration.defaultWeight))
  }
}
