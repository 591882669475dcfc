import CSherpaOnnx
import Foundation
import ModelSupport

/// The loaded sherpa-onnx speaker models and the only code that calls sherpa-onnx.
///
/// An actor on its own thread (``EngineThread``): a diarization blocks for seconds, and the C
/// objects must not be used from two places at once. It owns an offline speaker diarizer
/// (segmentation, embeddings and clustering in one call) and a speaker-embedding extractor over
/// the same CAM++ model.
actor SherpaOnnxDiarizer {
  /// One stretch of speech as sherpa-onnx labels it: its local cluster and times in seconds.
  struct Segment: Sendable, Equatable {
    var speaker: Int
    var start: Double
    var end: Double
  }

  private let diarizer: OpaquePointer
  private let extractor: OpaquePointer
  private let executor: EngineThread
  /// The embedding's length (192 for CAM++).
  let dimension: Int

  /// How far, as a fraction of the 10 s segmentation window, each window starts after the one
  /// before: 1, so windows do not overlap and every second is segmented and embedded once.
  /// sherpa-onnx's default of 0.1 embeds each second about ten times, which made diarization
  /// take longer than transcription. Segments over non-overlapping windows can run on across a
  /// pause and a change of speaker; ``SpeakerDiarizer`` cuts them at voice-activity pauses and
  /// clusters the pieces again. (A 0.5 ratio did worse: its segments ran on too, and cost twice.)
  static let windowShiftRatio = 1.0

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  /// Loads the segmentation and embedding networks, running each on `threads` CPU threads.
  init(segmentation: URL, embedding: URL, threads: Int) throws(SpeakerDiarizationError) {
    let provider = "cpu"
    var config = SherpaOnnxOfflineSpeakerDiarizationConfig()
    var extractorConfig = SherpaOnnxSpeakerEmbeddingExtractorConfig()
    let made: (OpaquePointer?, OpaquePointer?) = segmentation.path.withCString { segmentationPath in
      embedding.path.withCString { embeddingPath in
        provider.withCString { providerName in
          config.segmentation.pyannote.model = segmentationPath
          config.segmentation.pyannote.window_shift_ratio = Float(Self.windowShiftRatio)
          config.segmentation.num_threads = Int32(threads)
          config.segmentation.provider = providerName
          config.embedding.model = embeddingPath
          config.embedding.num_threads = Int32(threads)
          config.embedding.provider = providerName
          config.clustering.num_clusters = 0
          config.clustering.threshold = 0.5
          config.min_duration_on = 0.3
          config.min_duration_off = 0.5
          extractorConfig.model = embeddingPath
          extractorConfig.num_threads = Int32(threads)
          extractorConfig.provider = providerName
          return (
            SherpaOnnxCreateOfflineSpeakerDiarization(&config),
            SherpaOnnxCreateSpeakerEmbeddingExtractor(&extractorConfig)
          )
        }
      }
    }
    guard let diarizer = made.0, let extractor = made.1 else {
      if let diarizer = made.0 { SherpaOnnxDestroyOfflineSpeakerDiarization(diarizer) }
      if let extractor = made.1 { SherpaOnnxDestroySpeakerEmbeddingExtractor(extractor) }
      throw .engineFailure(
        detail:
          "sherpa-onnx could not load \(segmentation.path) and \(embedding.path): the files are damaged or not its models; install the model again"
      )
    }
    self.diarizer = diarizer
    self.extractor = extractor
    dimension = Int(SherpaOnnxSpeakerEmbeddingExtractorDim(extractor))
    executor = EngineThread(name: "sherpa-onnx")
  }

  isolated deinit {
    SherpaOnnxDestroyOfflineSpeakerDiarization(diarizer)
    SherpaOnnxDestroySpeakerEmbeddingExtractor(extractor)
  }

  /// The sample rate the models expect.
  var sampleRate: Int { Int(SherpaOnnxOfflineSpeakerDiarizationGetSampleRate(diarizer)) }

  /// Diarizes 16 kHz mono `samples` into `clusters` speakers (0: as many as sherpa-onnx's
  /// clustering threshold finds), reporting the fraction of windows done to `progress`.
  func segments(_ samples: [Float], clusters: Int, progress: @escaping @Sendable (Double) -> Void)
    throws(SpeakerDiarizationError) -> [Segment]
  {
    var config = SherpaOnnxOfflineSpeakerDiarizationConfig()
    config.clustering.num_clusters = Int32(clusters)
    config.clustering.threshold = 0.5
    SherpaOnnxOfflineSpeakerDiarizationSetConfig(diarizer, &config)
    let box = Unmanaged.passRetained(ProgressBox(progress))
    defer { box.release() }
    let callback: SherpaOnnxOfflineSpeakerDiarizationProgressCallback = { done, total, argument in
      guard let argument, total > 0 else { return 0 }
      Unmanaged<ProgressBox>.fromOpaque(argument).takeUnretainedValue().report(Double(done) / Double(total))
      return 0
    }
    let result = samples.withUnsafeBufferPointer { buffer in
      SherpaOnnxOfflineSpeakerDiarizationProcessWithCallback(
        diarizer, buffer.baseAddress, Int32(buffer.count), callback, box.toOpaque())
    }
    guard let result else { throw .engineFailure(detail: "sherpa-onnx returned no diarization result") }
    defer { SherpaOnnxOfflineSpeakerDiarizationDestroyResult(result) }
    let count = Int(SherpaOnnxOfflineSpeakerDiarizationResultGetNumSegments(result))
    guard count > 0, let sorted = SherpaOnnxOfflineSpeakerDiarizationResultSortByStartTime(result) else { return [] }
    defer { SherpaOnnxOfflineSpeakerDiarizationDestroySegment(sorted) }
    return (0..<count).map { index in
      Segment(speaker: Int(sorted[index].speaker), start: Double(sorted[index].start), end: Double(sorted[index].end))
    }
  }

  /// The CAM++ embedding of 16 kHz mono `samples`, or nil when they are too short for one.
  func embedding(of samples: [Float]) -> [Float]? {
    guard let stream = SherpaOnnxSpeakerEmbeddingExtractorCreateStream(extractor) else { return nil }
    defer { SherpaOnnxDestroyOnlineStream(stream) }
    samples.withUnsafeBufferPointer { buffer in
      SherpaOnnxOnlineStreamAcceptWaveform(stream, Int32(sampleRate), buffer.baseAddress, Int32(buffer.count))
    }
    SherpaOnnxOnlineStreamInputFinished(stream)
    guard SherpaOnnxSpeakerEmbeddingExtractorIsReady(extractor, stream) != 0,
      let vector = SherpaOnnxSpeakerEmbeddingExtractorComputeEmbedding(extractor, stream)
    else { return nil }
    defer { SherpaOnnxSpeakerEmbeddingExtractorDestroyEmbedding(vector) }
    return Array(UnsafeBufferPointer(start: vector, count: dimension))
  }
}

/// Carries a Swift progress closure through sherpa-onnx's C callback's user pointer.
private final class ProgressBox: Sendable {
  let report: @Sendable (Double) -> Void
  init(_ report: @escaping @Sendable (Double) -> Void) { self.report = report }
}
