import AudioIO
import Foundation
import SpeechRecognition

/// Transcribes an audio file into a ``Transcript`` with word times, reporting progress.
///
/// This is the app's use of the Speech-style API: a ``SpeechTranscriber`` in a
/// ``SpeechAnalyzer``, started on the file, its final results collected.
public struct FileTranscriber: Sendable {
  /// The model to use.
  public var model: SpeechModel
  /// The spoken language, or nil to detect it.
  public var locale: Locale?
  /// Where models are installed.
  public var modelDirectory: ModelDirectory
  /// A custom language model that steers recognition (the library's vocabulary), or nil.
  public var customLanguage: SpeechLanguageModel.Configuration?
  /// Words and names likely to be said (an API client's prompt), given to the analyzer as its
  /// context's contextual strings; none by default.
  public var contextualStrings: [String] = []
  /// What transcribes the audio: nil for the configured one (a transcription server the
  /// environment names, else `model` on this machine), or a given backend such as a server.
  public var backend: (any TranscriptionBackend)?

  /// Creates a transcriber that uses `model` for `locale` (nil detects the language), with
  /// models from `modelDirectory` (by default the current models folder), run by `backend`.
  public init(
    model: SpeechModel = .default, locale: Locale? = nil, modelDirectory: ModelDirectory? = nil,
    customLanguage: SpeechLanguageModel.Configuration? = nil, backend: (any TranscriptionBackend)? = nil
  ) {
    self.model = model
    self.locale = locale
    self.modelDirectory = modelDirectory ?? .current
    self.customLanguage = customLanguage
    self.backend = backend
  }

  /// Transcribes the file at `url`.
  ///
  /// - Parameter progress: called with the fraction of the audio transcribed so far (0...1).
  /// - Throws: `AudioIOError` for unreadable files, ``SpeechTranscriptionError`` otherwise
  ///   (``SpeechTranscriptionError/emptyResult`` when the file holds no speech).
  public func transcribe(_ url: URL, progress: @Sendable (Double) -> Void = { _ in }) async throws -> Transcript {
    let file = try AudioFile(forReading: url)
    let attributes: Set<SpeechTranscriber.ResultAttributeOption> = [.audioTimeRange, .transcriptionConfidence]
    let transcriber =
      try customLanguage.map {
        try SpeechTranscriber(
          model: model, locale: locale, attributeOptions: attributes, modelDirectory: modelDirectory,
          customizedLanguage: $0, backend: backend)
      }
      ?? SpeechTranscriber(
        model: model, locale: locale, reportingOptions: [], attributeOptions: attributes,
        modelDirectory: modelDirectory, backend: backend)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    if !contextualStrings.isEmpty {
      let context = AnalysisContext()
      context.contextualStrings = [.general: contextualStrings]
      try await analyzer.setContext(context)
    }
    try await analyzer.start(inputAudioFile: file, finishAfterFile: true)
    var segments: [Transcript.Segment] = []
    let duration = max(file.duration, 0.001)
    progress(0)
    for try await result in transcriber.results where result.isFinal {
      segments.append(Transcript.Segment(result))
      progress(min(result.range.end.seconds / duration, 1))
    }
    progress(1)
    guard !segments.isEmpty else { throw SpeechTranscriptionError.emptyResult }
    return Transcript(language: transcriber.detectedLanguage, duration: file.duration, segments: segments)
  }
}
