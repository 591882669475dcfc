import AudioIO
import Foundation
import SpeechRecognition

/// Speech to text for one recording at a time: a ``SpeechTranscriber`` with volatile results in a
/// ``SpeechAnalyzer`` fed buffer by buffer, as in Apple's Speech framework.
actor TranscriptionManager {
  private let model: SpeechModel
  private var inputBuilder: AsyncStream<AnalyzerInput>.Continuation?
  private var analyzer: SpeechAnalyzer?

  /// A manager that transcribes with `model`.
  init(model: SpeechModel) {
    self.model = model
  }

  /// The format to capture in: the analyzer's own, so no conversion is needed.
  func audioFormat() async -> AudioFormat {
    await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: []) ?? .speechAnalysis
  }

  /// Starts a transcription (installing the model first when it is missing) and returns its
  /// results: volatile ones while someone speaks, a final one at each pause.
  func startTranscription() async throws -> AsyncThrowingStream<SpeechTranscriber.Result, any Error> {
    let locale = SpeechTranscriber.supportedLocale(equivalentTo: Locale.current, model: model)
    let transcriber = SpeechTranscriber(
      model: model, locale: locale ?? (model.isMultilingual ? nil : Locale(identifier: "en")),
      reportingOptions: [.volatileResults])
    if let request = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
      try await request.downloadAndInstall()
    }
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    let (inputSequence, inputBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)
    try await analyzer.start(inputSequence: inputSequence)
    self.analyzer = analyzer
    self.inputBuilder = inputBuilder
    return transcriber.results
  }

  /// Hands one captured buffer to the analyzer.
  func processAudioBuffer(_ buffer: AudioBuffer) {
    inputBuilder?.yield(AnalyzerInput(buffer: buffer))
  }

  /// Ends the input and waits for the final results of everything heard; the results then end.
  func stopTranscription() async {
    inputBuilder?.finish()
    try? await analyzer?.finalizeAndFinishThroughEndOfInput()
    inputBuilder = nil
    analyzer = nil
  }
}
