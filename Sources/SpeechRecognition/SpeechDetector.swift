import AudioIO
import Foundation
import ModelSupport

/// Finds where people speak: the voice-activity module of a ``SpeechAnalyzer``, over the Silero
/// model that whisper.cpp runs.
///
/// Add it to an analyzer alone or next to a ``SpeechTranscriber`` (they share one voice-activity
/// pass over live input) and read ``results``: stretches of the audio with `speechDetected`.
///
/// ```swift
/// let detector = SpeechDetector(detectionOptions: .init(sensitivityLevel: .medium), reportResults: true)
/// let analyzer = SpeechAnalyzer(modules: [detector])
/// try await analyzer.start(inputSequence: inputSequence)
/// for try await result in detector.results where result.speechDetected {
///   print("speech from \(result.range.start.seconds) s to \(result.range.end.seconds) s")
/// }
/// ```
public final class SpeechDetector: AnalyzableModule {
  /// How readily a sound counts as speech.
  public let detectionOptions: DetectionOptions
  /// Whether ``results`` publishes anything; when false the stream only ends with the analysis.
  public let reportResults: Bool
  /// The models folder the voice-activity model is loaded from.
  public let modelDirectory: ModelDirectory

  /// The stretches of speech and of silence, in audio order, ending when the analyzer finishes
  /// (or with the error that stopped it).
  public let results: AsyncThrowingStream<Result, any Error>
  private let continuation: AsyncThrowingStream<Result, any Error>.Continuation

  /// Creates a detector of medium sensitivity that reports its results.
  public convenience init() {
    self.init(detectionOptions: DetectionOptions(sensitivityLevel: .medium), reportResults: true)
  }

  /// Creates a detector with `detectionOptions`; `reportResults` says whether ``results``
  /// publishes the stretches it finds.
  public init(detectionOptions: DetectionOptions, reportResults: Bool, modelDirectory: ModelDirectory = .current) {
    self.detectionOptions = detectionOptions
    self.reportResults = reportResults
    self.modelDirectory = modelDirectory
    (results, continuation) = AsyncThrowingStream.makeStream(of: Result.self)
  }

  /// 16 kHz mono, what the voice-activity model consumes.
  public var availableCompatibleAudioFormats: [AudioFormat] {
    get async { [.speechAnalysis] }
  }

  // MARK: - Analysis

  var voiceActivityModelPath: String { modelDirectory.file(named: VoiceActivityDetector.modelFileName).path }

  func checkReady() throws {
    if let reason = SpeechTranscriber.unavailabilityReason {
      throw SpeechTranscriptionError.unavailable(reason: reason)
    }
    guard FileManager.default.fileExists(atPath: voiceActivityModelPath) else {
      throw SpeechTranscriptionError.voiceActivityModelMissing(path: voiceActivityModelPath)
    }
  }

  func makeLiveAnalysis(shouldAbort: @escaping @Sendable () -> Bool) throws -> any LiveModuleAnalysis {
    try checkReady()
    return LiveSpeechDetection(
      sensitivity: detectionOptions.sensitivityLevel, continuation: reportResults ? continuation : nil)
  }

  func analyze(_ audio: AudioBuffer, at offset: Double, shouldAbort: @escaping @Sendable () -> Bool) async throws {
    let detection = try makeLiveAnalysis(shouldAbort: shouldAbort)
    let detector = try VoiceActivityDetector(modelPath: voiceActivityModelPath)
    // A few seconds at a time, as if it were live input.
    let chunk = VoiceActivityDetector.windowSize * 128
    let first = Int((offset * Double(LiveAudio.sampleRate)).rounded())
    var start = 0
    while start < audio.samples.count {
      if shouldAbort() { throw SpeechTranscriptionError.cancelled }
      let samples = Array(audio.samples[start..<min(start + chunk, audio.samples.count)])
      let probabilities = try await detector.speechProbabilities(samples)
      await detection.append(LiveAudio(start: first + start, samples: samples, speechProbabilities: probabilities))
      start += samples.count
    }
    try await detection.finish()
  }

  func finishResults(throwing error: (any Error)?) {
    continuation.finish(throwing: error)
  }
}
