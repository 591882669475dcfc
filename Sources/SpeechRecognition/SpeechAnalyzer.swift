import AudioIO
import Foundation

/// Runs speech modules, such as ``SpeechTranscriber``, over audio.
///
/// As in Apple's Speech framework: create it with its modules, start it on a file, and read each
/// module's results. `start(inputAudioFile:finishAfterFile:)` decodes the file (so a bad file
/// fails right there, with a message naming it) and returns while the analysis runs.
///
/// ```swift
/// let analyzer = SpeechAnalyzer(modules: [transcriber])
/// try await analyzer.start(inputAudioFile: file, finishAfterFile: true)
/// ```
public actor SpeechAnalyzer {
  /// Settings that affect how the analyzer runs.
  public struct Options: Sendable {
    /// How long a loaded model stays in memory.
    public enum ModelRetention: Sendable, Hashable {
      /// Until the analyzer is released.
      case whileInUse
      /// For a while after the analyzer is released.
      case lingering
      /// Until the process ends (how models are kept here: loading is the slow part).
      case processLifetime
    }

    /// The priority of the analysis task.
    public var priority: TaskPriority
    /// How long a loaded model stays in memory.
    public var modelRetention: ModelRetention

    /// Creates options with a task priority and a model-retention policy.
    public init(priority: TaskPriority, modelRetention: ModelRetention) {
      self.priority = priority
      self.modelRetention = modelRetention
    }
  }

  /// The modules the analyzer drives.
  public let modules: [any SpeechModule]
  private let options: Options?
  private var analysis: Task<CMTime?, any Error>?
  private var isFinished = false
  private let abort = CancellationFlag()

  /// Creates an analyzer that will run `modules`.
  public init(modules: [any SpeechModule], options: Options? = nil) {
    self.modules = modules
    self.options = options
  }

  /// The format to give the analyzer: 16 kHz mono, what every module here consumes.
  public static func bestAvailableAudioFormat(compatibleWith modules: [any SpeechModule]) async -> AudioFormat? {
    .speechAnalysis
  }

  /// Decodes `inputAudioFile` and starts analysing it; returns once the analysis is under way.
  ///
  /// - Parameter finishAfterFile: end the modules' result streams when the file is done; when
  ///   false they stay open until ``finalizeAndFinishThroughEndOfInput()``.
  /// - Throws: ``SpeechTranscriptionError`` when a module cannot run, `AudioIOError` when the file
  ///   cannot be decoded. The modules' result streams end with the same error.
  public func start(inputAudioFile: AudioFile, finishAfterFile: Bool = false) async throws {
    guard analysis == nil, !isFinished else {
      throw SpeechTranscriptionError.invalidState("start was called on an analyzer that already has input")
    }
    let audio: AudioBuffer
    do {
      for module in analyzableModules { try module.checkReady() }
      audio = try inputAudioFile.read(format: .speechAnalysis)
    } catch {
      finishModules(throwing: error)
      throw error
    }
    let modules = analyzableModules
    let abort = abort
    let shouldAbort: @Sendable () -> Bool = { abort.isSet || Task.isCancelled }
    analysis = Task(priority: options?.priority) {
      for module in modules {
        do {
          try await module.analyze(audio, shouldAbort: shouldAbort)
        } catch {
          for module in modules { module.finishResults(throwing: error) }
          throw error
        }
      }
      if finishAfterFile {
        for module in modules { module.finishResults(throwing: nil) }
      }
      return CMTime(value: Int64(audio.frameLength), timescale: Int32(audio.format.sampleRate))
    }
    if finishAfterFile { isFinished = true }
  }

  /// Analyzes the whole file and returns the time of its last sample, leaving the results open.
  public func analyzeSequence(from file: AudioFile) async throws -> CMTime? {
    try await start(inputAudioFile: file, finishAfterFile: false)
    return try await analysis?.value
  }

  /// Waits for all input to be analysed, then ends every module's result stream.
  public func finalizeAndFinishThroughEndOfInput() async throws {
    defer {
      isFinished = true
      finishModules(throwing: nil)
    }
    _ = try await analysis?.value
  }

  /// Waits for the input up to `time` to be analysed, then ends every module's result stream.
  public func finalizeAndFinish(through time: CMTime) async throws {
    try await finalizeAndFinishThroughEndOfInput()
  }

  /// Stops the analysis as soon as the engine allows and ends the result streams.
  public func cancelAndFinishNow() async {
    abort.set()
    _ = try? await analysis?.value
    isFinished = true
    finishModules(throwing: nil)
  }

  private var analyzableModules: [any AnalyzableModule] {
    modules.compactMap { $0 as? any AnalyzableModule }
  }

  private func finishModules(throwing error: (any Error)?) {
    for module in analyzableModules { module.finishResults(throwing: error) }
  }
}
