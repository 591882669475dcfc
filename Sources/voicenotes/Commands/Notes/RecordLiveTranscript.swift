import AudioIO
import Foundation
import SpeechRecognition

/// The live transcript of a recording: each captured buffer also goes to a speech analyzer with
/// volatile results, whose results go to a ``LiveTranscriptView``.
///
/// Only for show: the note's transcript is made afterwards from the whole file, which is more
/// accurate. A live transcript that fails says so once and the recording goes on.
final class RecordLiveTranscript: Sendable {
  private let analyzer: SpeechAnalyzer
  private let inputs: AsyncStream<AnalyzerInput>.Continuation
  private let display: Task<Void, Never>

  private init(analyzer: SpeechAnalyzer, inputs: AsyncStream<AnalyzerInput>.Continuation, display: Task<Void, Never>) {
    self.analyzer = analyzer
    self.inputs = inputs
    self.display = display
  }

  /// Loads `model` and starts analysing; results appear on `view` as they come.
  ///
  /// - Throws: ``SpeechTranscriptionError`` when the model (or the voice-activity model) is
  ///   missing or cannot run.
  static func start(model: SpeechModel, view: LiveTranscriptView) async throws -> RecordLiveTranscript {
    let transcriber = SpeechTranscriber(
      model: model, locale: model.isMultilingual ? nil : Locale(identifier: "en"),
      reportingOptions: [.volatileResults])
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    let (inputSequence, inputs) = AsyncStream.makeStream(of: AnalyzerInput.self)
    try await analyzer.start(inputSequence: inputSequence)
    let display = Task {
      do {
        for try await result in transcriber.results { view.show(result) }
      } catch {
        view.message(
          "live transcript stopped: \((error as? LocalizedError)?.errorDescription ?? "\(error)"); recording goes on")
      }
    }
    return RecordLiveTranscript(analyzer: analyzer, inputs: inputs, display: display)
  }

  /// Hands a captured buffer to the analyzer.
  func append(_ buffer: AudioBuffer) {
    inputs.yield(AnalyzerInput(buffer: buffer))
  }

  /// Ends the input and waits until the final results for all of it are shown.
  func finish() async {
    inputs.finish()
    try? await analyzer.finalizeAndFinishThroughEndOfInput()
    await display.value
  }
}
