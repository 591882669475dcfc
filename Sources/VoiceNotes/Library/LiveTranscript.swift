import AudioIO
import Foundation
import SpeechRecognition

/// The live transcript of a recording: each captured buffer also goes to a speech analyzer with
/// volatile results, whose results are handed to a closure as they come.
///
/// Only for show: the note's transcript is made afterwards from the whole file, which is more
/// accurate. A live transcript that fails reports it once and the recording goes on.
public final class LiveTranscript: Sendable {
  private let analyzer: SpeechAnalyzer
  private let inputs: AsyncStream<AnalyzerInput>.Continuation
  private let display: Task<Void, Never>

  private init(analyzer: SpeechAnalyzer, inputs: AsyncStream<AnalyzerInput>.Continuation, display: Task<Void, Never>) {
    self.analyzer = analyzer
    self.inputs = inputs
    self.display = display
  }

  /// Loads `model` and starts analysing; each result goes to `onResult`, and a failure of the
  /// engine mid-way to `onFailure` (once, after which results stop).
  ///
  /// - Throws: ``SpeechTranscriptionError`` when the model (or the voice-activity model) is
  ///   missing or cannot run.
  public static func start(
    model: SpeechModel, onResult: @escaping @Sendable (SpeechTranscriber.Result) -> Void,
    onFailure: @escaping @Sendable (String) -> Void = { _ in }
  ) async throws -> LiveTranscript {
    let transcriber = SpeechTranscriber(
      model: model, locale: model.isMultilingual ? nil : Locale(identifier: "en"),
      reportingOptions: [.volatileResults])
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    let (inputSequence, inputs) = AsyncStream.makeStream(of: AnalyzerInput.self)
    try await analyzer.start(inputSequence: inputSequence)
    let display = Task {
      do {
        for try await result in transcriber.results { onResult(result) }
      } catch {
        onFailure(FailureText.describe(error))
      }
    }
    return LiveTranscript(analyzer: analyzer, inputs: inputs, display: display)
  }

  /// Hands a captured buffer to the analyzer.
  public func append(_ buffer: AudioBuffer) {
    inputs.yield(AnalyzerInput(buffer: buffer))
  }

  /// Ends the input and waits until the final results for all of it have been handed on.
  public func finish() async {
    inputs.finish()
    try? await analyzer.finalizeAndFinishThroughEndOfInput()
    await display.value
  }
}
