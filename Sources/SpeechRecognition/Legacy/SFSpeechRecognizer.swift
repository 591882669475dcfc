import AudioIO
import Foundation
import ModelSupport
import Synchronization

/// Apple's original speech recognizer (`SFSpeechRecognizer`), over the same Whisper engine as
/// ``SpeechTranscriber``, for the many apps written against it.
///
/// ```swift
/// let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US"))!
/// let request = SFSpeechURLRecognitionRequest(url: url)
/// recognizer.recognitionTask(with: request) { result, error in
///   if let result, result.isFinal { print(result.bestTranscription.formattedString) }
/// }
/// ```
///
/// Differences on Linux: recognition always runs on the machine (``supportsOnDeviceRecognition``
/// is true) and needs no permission (``authorizationStatus()`` is `.authorized`); the recognizer
/// is available when its speech model is installed (see ``AssetInventory``) and unavailable
/// otherwise, and the delegate hears when that changes. Results and delegate calls arrive on
/// ``queue``, the main queue unless set, as on Apple's platforms: a program must keep that queue
/// running (an async `main`, `dispatchMain()` or a run loop).
public final class SFSpeechRecognizer: @unchecked Sendable {
  /// The language recognized.
  public let locale: Locale
  /// The Whisper model that does the work (our extension).
  public let model: SpeechModel
  /// The models folder the model is read from (our extension).
  public let modelDirectory: ModelDirectory

  private struct Settings {
    var supportsOnDeviceRecognition = true
    var defaultTaskHint = SFSpeechRecognitionTaskHint.unspecified
    var queue = OperationQueue.main
    weak var delegate: (any SFSpeechRecognizerDelegate)?
    var lastAvailability: Bool?
    var monitor: DispatchSourceTimer?
  }
  private let lock = NSLock()
  private var storedSettings = Settings()

  /// Runs `body` on the settings under the lock.
  private func withSettings<T>(_ body: (inout Settings) -> T) -> T {
    lock.withLock { body(&storedSettings) }
  }

  /// A recognizer for the user's current language, or nil when the model does not speak it.
  public convenience init?() {
    self.init(locale: .current)
  }

  /// A recognizer for `locale`, or nil when the default model does not speak it.
  public convenience init?(locale: Locale) {
    self.init(locale: locale, model: .default, modelDirectory: .current)
  }

  /// A recognizer for `locale` that uses `model` from `modelDirectory` (our extension), or nil
  /// when the model does not speak that language.
  public init?(locale: Locale, model: SpeechModel, modelDirectory: ModelDirectory = .current) {
    guard let supported = SpeechTranscriber.supportedLocale(equivalentTo: locale, model: model) else { return nil }
    self.locale = supported
    self.model = model
    self.modelDirectory = modelDirectory
  }

  deinit {
    withSettings { $0.monitor?.cancel() }
  }

  /// The locales the default model recognizes.
  public static func supportedLocales() -> Set<Locale> {
    Set(SpeechTranscriber.supportedLocales(for: .default))
  }

  /// Always `.authorized`: recognition here is on the machine and needs no permission.
  public static func authorizationStatus() -> SFSpeechRecognizerAuthorizationStatus { .authorized }

  /// Calls `handler` with `.authorized` on a background queue, as Apple's calls it on one of its own.
  public static func requestAuthorization(_ handler: @escaping (SFSpeechRecognizerAuthorizationStatus) -> Void) {
    let call = UncheckedSendable(handler)
    DispatchQueue.global().async { call.value(.authorized) }
  }

  /// Whether recognition can run now: the machine can run the engine and the model is installed.
  public var isAvailable: Bool {
    SpeechTranscriber.isAvailable && AssetInventory.status(of: model, in: modelDirectory) == .installed
  }

  /// Whether recognition can run without a network: always true here.
  public var supportsOnDeviceRecognition: Bool {
    get { withSettings { $0.supportsOnDeviceRecognition } }
    set { withSettings { $0.supportsOnDeviceRecognition = newValue } }
  }

  /// The hint used for requests that give none (kept; see ``SFSpeechRecognitionTaskHint``).
  public var defaultTaskHint: SFSpeechRecognitionTaskHint {
    get { withSettings { $0.defaultTaskHint } }
    set { withSettings { $0.defaultTaskHint = newValue } }
  }

  /// The queue results and delegate calls arrive on (the main queue by default).
  public var queue: OperationQueue {
    get { withSettings { $0.queue } }
    set { withSettings { $0.queue = newValue } }
  }

  /// Hears availability changes (held weakly); while one is set, availability is checked every second.
  public var delegate: (any SFSpeechRecognizerDelegate)? {
    get { withSettings { $0.delegate } }
    set {
      let available = isAvailable
      withSettings {
        $0.delegate = newValue
        $0.lastAvailability = available
        $0.monitor?.cancel()
        $0.monitor = newValue == nil ? nil : makeMonitor()
      }
    }
  }

  /// Starts recognizing `request`; `resultHandler` gets each partial result (when the request
  /// asks for them), then the final one, or an error, on ``queue``.
  @discardableResult
  public func recognitionTask(
    with request: SFSpeechRecognitionRequest,
    resultHandler: @escaping (SFSpeechRecognitionResult?, (any Error)?) -> Void
  ) -> SFSpeechRecognitionTask {
    let handler = UncheckedSendable(resultHandler)
    return start(request) { event in
      switch event {
      case .partial(let result), .final(let result): handler.value(result, nil)
      case .failed(let error): handler.value(nil, error)
      case .cancelled: handler.value(nil, SFSpeechError(.canceled))
      case .detectedSpeech, .finishedReadingAudio, .audioProcessed: break
      }
    }
  }

  /// Starts recognizing `request`, telling `delegate` about its progress on ``queue``.
  @discardableResult
  public func recognitionTask(
    with request: SFSpeechRecognitionRequest, delegate: any SFSpeechRecognitionTaskDelegate
  ) -> SFSpeechRecognitionTask {
    let listener = UncheckedSendable(delegate)
    var started: SFSpeechRecognitionTask?
    let task = start(request) { event in
      guard let task = started else { return }
      let delegate = listener.value
      switch event {
      case .detectedSpeech: delegate.speechRecognitionDidDetectSpeech(task)
      case .partial(let result):
        delegate.speechRecognitionTask(task, didHypothesizeTranscription: result.bestTranscription)
      case .audioProcessed(let seconds): delegate.speechRecognitionTask(task, didProcessAudioDuration: seconds)
      case .finishedReadingAudio: delegate.speechRecognitionTaskFinishedReadingAudio(task)
      case .final(let result):
        delegate.speechRecognitionTask(task, didFinishRecognition: result)
        delegate.speechRecognitionTask(task, didFinishSuccessfully: true)
      case .failed: delegate.speechRecognitionTask(task, didFinishSuccessfully: false)
      case .cancelled:
        delegate.speechRecognitionTaskWasCancelled(task)
        delegate.speechRecognitionTask(task, didFinishSuccessfully: false)
      }
    }
    started = task
    return task
  }

  /// Makes the task and runs it, delivering its events in order on ``queue``.
  private func start(
    _ request: SFSpeechRecognitionRequest, deliver: @escaping (SFSpeechRecognitionTask.Event) -> Void
  ) -> SFSpeechRecognitionTask {
    let task = SFSpeechRecognitionTask(request: request)
    let delivery = UncheckedSendable(deliver)
    let target = queue
    let serial = OperationQueue()
    serial.maxConcurrentOperationCount = 1
    let report: @Sendable (SFSpeechRecognitionTask.Event) -> Void = { event in
      let event = UncheckedSendable(event)
      // Events leave in order through one serial queue, then run on the recognizer's queue.
      serial.addOperation {
        let done = DispatchSemaphore(value: 0)
        target.addOperation {
          delivery.value(event.value)
          done.signal()
        }
        done.wait()
      }
    }
    let input: SFSpeechRecognitionTask.Input
    switch request {
    case let live as SFSpeechAudioBufferRecognitionRequest: input = .live(live.input, voice: live.voice)
    case let file as SFSpeechURLRecognitionRequest: input = .file(file.url)
    default:
      report(.failed(SFSpeechError(.invalidRequest)))
      return task
    }
    guard isAvailable else {
      report(.failed(SpeechTranscriptionError.modelNotInstalled(model: model.name)))
      return task
    }
    do {
      let steering = try request.steering(locale: locale)
      let transcriber = SpeechTranscriber(
        model: model, locale: locale,
        reportingOptions: request.shouldReportPartialResults ? [.volatileResults] : [],
        attributeOptions: [.audioTimeRange, .transcriptionConfidence], modelDirectory: modelDirectory,
        customLanguageModel: steering?.model,
        customLanguageModelMode: steering?.mode ?? .bias(strength: SpeechLanguageModel.Configuration.defaultWeight))
      task.run(
        transcriber: transcriber, input: input, partialResults: request.shouldReportPartialResults,
        punctuated: request.addsPunctuation, report: report)
    } catch {
      report(.failed(error))
    }
    return task
  }

  /// A timer that tells the delegate when availability changes.
  private func makeMonitor() -> DispatchSourceTimer {
    let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
    timer.schedule(deadline: .now() + 1, repeating: 1)
    timer.setEventHandler { [weak self] in self?.checkAvailability() }
    timer.resume()
    return timer
  }

  private func checkAvailability() {
    let available = isAvailable
    let changed = withSettings { settings -> (any SFSpeechRecognizerDelegate, OperationQueue)? in
      guard settings.lastAvailability != available, let delegate = settings.delegate else { return nil }
      settings.lastAvailability = available
      return (delegate, settings.queue)
    }
    guard let (delegate, queue) = changed else { return }
    let call = UncheckedSendable((self, delegate))
    queue.addOperation { call.value.1.speechRecognizer(call.value.0, availabilityDidChange: available) }
  }
}

/// Carries a value the compiler cannot prove thread-safe across a queue hop whose ordering makes
/// it safe (callbacks delivered one at a time, as Apple's queue-based APIs do).
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
