import AudioIO
import Foundation

/// What turns a whole recording into text for a ``SpeechTranscriber``: the local whisper.cpp
/// engine (``WhisperBackend``) or an OpenAI-compatible server (``OpenAITranscriptionBackend``).
///
/// The transcriber chooses one when it is created (see
/// ``SpeechTranscriber/init(locale:preset:backend:)``); everything after the backend (results,
/// attributes, custom-language-model rewriting) is the same for all of them. Live input is always
/// transcribed by the local engine.
///
/// ```swift
/// let server = OpenAITranscriptionBackend(
///   endpoint: .init(url: URL(string: "http://127.0.0.1:8080")!, model: "whisper-1"))
/// let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription, backend: server)
/// ```
public protocol TranscriptionBackend: Sendable, CustomStringConvertible {
  /// Throws when the backend cannot transcribe `locale`'s language (nil: detect the language) at
  /// all: an unsupported language, a missing model. Cheap: it does no network request.
  func checkReady(locale: Locale?) throws(SpeechTranscriptionError)

  /// Loads what transcription needs (a model), so the first recording starts without that wait.
  func prepare() throws(SpeechTranscriptionError)

  /// How ready the backend's assets are for `locale`'s language (nil: any): a local model's
  /// install state; for a server, `installed` when it answers.
  ///
  /// - Throws: ``SpeechTranscriptionError/serverUnreachable(url:reason:)`` when a server does not answer.
  func assetStatus(locale: Locale?) async throws(SpeechTranscriptionError) -> AssetInventory.Status

  /// Transcribes 16 kHz mono `audio` as `request` asks, calling `onSegment` with each stretch of
  /// speech as soon as it is ready, in audio order, with times in seconds from the first sample.
  ///
  /// - Parameter shouldAbort: polled while the work runs; when it returns true the backend stops
  ///   and throws ``SpeechTranscriptionError/cancelled``. Task cancellation is honoured too.
  /// - Returns: the language of the speech (an ISO 639-1 code): the requested one, or the one
  ///   detected; nil when there was nothing to detect it from.
  func transcribe(
    _ audio: AudioBuffer, request: TranscriptionRequest, shouldAbort: @escaping @Sendable () -> Bool,
    onSegment: @escaping @Sendable (TranscribedSegment) -> Void
  ) async throws(SpeechTranscriptionError) -> String?
}
