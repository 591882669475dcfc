import CWhisper
import Foundation
import ModelSupport

/// Streaming voice-activity detection with the Silero model, through whisper.cpp's VAD API.
///
/// Each call to ``speechProbabilities(_:)`` continues where the previous one stopped: the model's
/// recurrent state is kept between calls (`whisper_vad_detect_speech_no_reset`), so a stream fed
/// in pieces gets the same probabilities as the whole signal at once. One detector serves one
/// stream. Every detector runs on one shared engine thread, apart from the Whisper decoder's, so
/// that speech and pauses are still noticed while a decode runs.
actor VoiceActivityDetector {
  /// The model's file name in a models folder (the bootstrap copies it from the whisper.cpp sources).
  static let modelFileName = "ggml-silero-vad.bin"
  /// Samples per probability: Silero judges 32 ms windows of 16 kHz audio.
  static let windowSize = 512

  private static let thread = EngineThread(name: "whisper-vad")
  private let context: OpaquePointer

  nonisolated var unownedExecutor: UnownedSerialExecutor { Self.thread.asUnownedSerialExecutor() }

  /// Loads the Silero model at `path`.
  init(modelPath path: String) throws(SpeechTranscriptionError) {
    WhisperContext.silenceLogs
    do { try ComputeBackend.load() } catch { throw .engineFailure(detail: error.localizedDescription) }
    var parameters = whisper_vad_default_context_params()
    // The model is tiny; one thread keeps it from competing with the decoder's threads.
    parameters.n_threads = 1
    parameters.use_gpu = false
    guard let context = whisper_vad_init_from_file_with_params(path, parameters) else {
      throw .voiceActivityModelMissing(path: path)
    }
    // The recurrent state starts as uninitialised memory; clear it, or the first windows are judged
    // from garbage.
    whisper_vad_reset_state(context)
    self.context = context
  }

  isolated deinit {
    whisper_vad_free(context)
  }

  /// The probability of speech in each window of `samples`, continuing the stream.
  ///
  /// `samples` should hold whole windows (``windowSize``); a partial last window is judged as if
  /// padded with silence, so only the end of a stream should pass one.
  func speechProbabilities(_ samples: [Float]) throws(SpeechTranscriptionError) -> [Float] {
    guard !samples.isEmpty else { return [] }
    guard whisper_vad_detect_speech_no_reset(context, samples, Int32(samples.count)) else {
      throw .engineFailure(detail: "voice-activity detection failed on \(samples.count) samples")
    }
    let count = Int(whisper_vad_n_probs(context))
    guard let probabilities = whisper_vad_probs(context) else { return [] }
    return Array(UnsafeBufferPointer(start: probabilities, count: count))
  }

  /// Forgets the stream so far (after a gap in the input): the next window starts afresh.
  func reset() {
    whisper_vad_reset_state(context)
  }
}
