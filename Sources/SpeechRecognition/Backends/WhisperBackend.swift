import AudioIO
import Foundation
import ModelSupport
import Synchronization

/// Transcription on this machine with whisper.cpp: the default ``TranscriptionBackend``.
///
/// It loads `model` from `modelDirectory` once per process (shared by every transcriber that
/// names the same file), removes silence with the Silero voice-activity model when it is
/// installed, and follows a custom language model while it decodes (favoured tokens, a grammar
/// of commands, a guarded prompt).
///
/// ```swift
/// let local = WhisperBackend(model: .base)
/// let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription, backend: local)
/// ```
public struct WhisperBackend: TranscriptionBackend {
  /// The Whisper model that does the work.
  public let model: SpeechModel
  /// The models folder the model is loaded from.
  public let modelDirectory: ModelDirectory

  /// A backend that runs `model` from `modelDirectory` (by default the current models folder).
  public init(model: SpeechModel = .default, modelDirectory: ModelDirectory = .current) {
    self.model = model
    self.modelDirectory = modelDirectory
  }

  /// Names the engine and the model, for messages.
  public var description: String { "whisper.cpp (\(model.name) model)" }

  /// The model file.
  var modelPath: String { modelDirectory.file(for: model).path }

  /// Throws when this machine cannot run the engine, `model` does not know `locale`'s language,
  /// or the model is not installed.
  public func checkReady(locale: Locale?) throws(SpeechTranscriptionError) {
    if let reason = SpeechTranscriber.unavailabilityReason { throw .unavailable(reason: reason) }
    if let locale, SpeechTranscriber.supportedLocale(equivalentTo: locale, model: model) == nil {
      throw .unsupportedLocale(locale, model: model.name)
    }
    guard FileManager.default.fileExists(atPath: modelPath) else { throw .modelNotInstalled(model: model.name) }
  }

  /// Loads the model.
  public func prepare() throws(SpeechTranscriptionError) {
    try checkReady(locale: nil)
    _ = try WhisperContext.shared(modelAt: modelPath)
  }

  /// The model's install state in the models folder (`unsupported` for a language it lacks).
  public func assetStatus(locale: Locale?) async throws(SpeechTranscriptionError) -> AssetInventory.Status {
    if let locale, SpeechTranscriber.supportedLocale(equivalentTo: locale, model: model) == nil { return .unsupported }
    return AssetInventory.status(of: model, in: modelDirectory)
  }

  /// Decodes `audio` with whisper.cpp; see ``TranscriptionBackend/transcribe(_:request:shouldAbort:onSegment:)``.
  ///
  /// Segments arrive as they are decoded, except with a biasing custom language model that
  /// primes the decoder: then the audio is decoded with and without the prompt and the segments
  /// arrive together at the end (see ``PromptedTextGuard``).
  public func transcribe(
    _ audio: AudioBuffer, request: TranscriptionRequest, shouldAbort: @escaping @Sendable () -> Bool,
    onSegment: @escaping @Sendable (TranscribedSegment) -> Void
  ) async throws(SpeechTranscriptionError) -> String? {
    try checkReady(locale: request.language.map(Locale.init(identifier:)))
    let context = try WhisperContext.shared(modelAt: modelPath)
    var standard = WhisperDecodingOptions.standard(
      language: request.language, voiceActivityModel: modelDirectory.voiceActivityModel?.path)
    standard.initialPrompt = request.prompt
    standard.tokenTimestamps = request.wantsWordTimestamps
    let abort: @Sendable () -> Bool = { shouldAbort() || Task.isCancelled }
    if let steering = request.steering, let promptGuard = steering.promptGuard {
      return try await transcribeGuarded(
        audio, context: context, standard: standard, steering: steering, promptGuard: promptGuard,
        shouldAbort: abort, onSegment: onSegment)
    }
    var options = standard
    request.steering?.apply(to: &options, isFinal: true)
    return try await context.transcribe(audio.samples, options: options, shouldAbort: abort) { segment in
      onSegment(Self.segment(segment, words: SpeechTranscriber.Result.words(of: segment.tokens)))
    }
  }

  /// Biasing with a prompt: a decode without the prompt, one with it, and the prompted words kept
  /// only where they bring in the model's words.
  private func transcribeGuarded(
    _ audio: AudioBuffer, context: WhisperContext, standard: WhisperDecodingOptions, steering: LanguageModelSteering,
    promptGuard: PromptedTextGuard, shouldAbort: @escaping @Sendable () -> Bool,
    onSegment: @escaping @Sendable (TranscribedSegment) -> Void
  ) async throws(SpeechTranscriptionError) -> String? {
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
      plain: segments.map { SpeechTranscriber.Result.words(of: $0.tokens) },
      prompted: prompted.withLock { $0 }.flatMap { SpeechTranscriber.Result.words(of: $0.tokens) })
    for (segment, words) in zip(segments, merged) { onSegment(Self.segment(segment, words: words)) }
    return language
  }

  /// A decoded segment with `words` (its tokens grouped into words).
  private static func segment(_ segment: WhisperSegment, words: [WhisperSegment.Token]) -> TranscribedSegment {
    TranscribedSegment(
      start: segment.start, end: max(segment.end, segment.start),
      text: String(decoding: words.flatMap(\.bytes), as: UTF8.self), words: words.map(TranscribedSegment.Word.init))
  }
}
