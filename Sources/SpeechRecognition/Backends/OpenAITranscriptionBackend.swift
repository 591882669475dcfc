import AudioIO
import Foundation
import ModelSupport
import Networking

/// Transcription by a server that speaks OpenAI's `/v1/audio/transcriptions` API: whisper.cpp's
/// `whisper-server` (started with `--inference-path /v1/audio/transcriptions`), speaches,
/// faster-whisper-server, vLLM or OpenAI itself.
///
/// Each request uploads the audio as a 16 kHz mono 16-bit WAV file and asks for `verbose_json`
/// with segment and word times; the reply's segments and words become the transcriber's results.
/// A recording longer than ``Limits`` allows in one request is cut at pauses (found by the
/// Silero voice-activity model on this machine) and sent piece by piece, the pieces' times moved
/// back to where they lie in the recording.
///
/// ```swift
/// let server = OpenAITranscriptionBackend(
///   endpoint: .init(url: URL(string: "http://127.0.0.1:8080")!, model: "whisper-1", apiKey: nil))
/// let transcriber = SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .transcription, backend: server)
/// ```
///
/// Or with no code at all: `VOICENOTES_TRANSCRIPTION_SERVER=http://127.0.0.1:8080` makes every
/// transcriber created without a backend use that server (see `EngineConfiguration`).
public struct OpenAITranscriptionBackend: TranscriptionBackend {
  /// How much audio one request may carry; servers refuse larger uploads (OpenAI: 25 MB).
  public struct Limits: Sendable, Equatable {
    /// The longest piece of audio sent in one request, in seconds.
    public var maximumDuration: Double
    /// The largest upload (the WAV file) in one request, in bytes.
    public var maximumBytes: Int

    /// Pieces of at most `maximumDuration` seconds (5 minutes) and `maximumBytes` (20 MB).
    public init(maximumDuration: Double = 300, maximumBytes: Int = 20_000_000) {
      self.maximumDuration = maximumDuration
      self.maximumBytes = maximumBytes
    }

    /// The most 16-bit mono samples a request may carry.
    var maximumSamples: Int {
      let byDuration = Int(maximumDuration * AudioFormat.speechAnalysis.sampleRate)
      let byBytes = (maximumBytes - Self.wavHeaderSize) / 2
      return max(min(byDuration, byBytes), 2 * VoiceActivityDetector.windowSize)
    }

    /// The bytes of a WAV file's header before its samples.
    static let wavHeaderSize = 44
  }

  /// The server: its base URL (before `/v1`), the model to ask for, an optional API key.
  public let endpoint: EngineConfiguration.ServerEndpoint
  /// How much audio one request may carry.
  public let limits: Limits
  /// How long one request may take, upload and transcription together.
  public let timeout: Duration
  /// How long connecting to the server may take.
  public let connectTimeout: Duration
  /// The models folder that holds the Silero voice-activity model, used to cut long recordings.
  public let modelDirectory: ModelDirectory
  private let client: HTTPClient

  /// A backend that sends audio to `endpoint`, at most `limits` per request, each request given
  /// `timeout` to finish; long recordings are cut with the voice-activity model in `modelDirectory`.
  public init(
    endpoint: EngineConfiguration.ServerEndpoint, limits: Limits = Limits(), timeout: Duration = .seconds(600),
    connectTimeout: Duration = .seconds(5), modelDirectory: ModelDirectory = .current
  ) {
    self.init(
      endpoint: endpoint, limits: limits, timeout: timeout, connectTimeout: connectTimeout,
      modelDirectory: modelDirectory, client: .shared)
  }

  init(
    endpoint: EngineConfiguration.ServerEndpoint, limits: Limits, timeout: Duration, connectTimeout: Duration,
    modelDirectory: ModelDirectory, client: HTTPClient
  ) {
    self.endpoint = endpoint
    self.limits = limits
    self.timeout = timeout
    self.connectTimeout = connectTimeout
    self.modelDirectory = modelDirectory
    self.client = client
  }

  /// Names the server, for messages.
  public var description: String { "the transcription server \(serverName)" }

  /// The server's URL as configured, as messages name it.
  var serverName: String { endpoint.url.absoluteString }

  /// The transcription endpoint: `<url>/v1/audio/transcriptions` (a URL already ending in `/v1`
  /// gets only the rest).
  var transcriptionsURL: URL {
    let base = endpoint.url.absoluteString.hasSuffix("/") ? String(endpoint.url.absoluteString.dropLast()) : serverName
    let path = base.hasSuffix("/v1") ? "/audio/transcriptions" : "/v1/audio/transcriptions"
    return URL(string: base + path) ?? endpoint.url.appendingPathComponent("v1/audio/transcriptions")
  }

  /// Throws when `locale` is no language Whisper knows; whether the server is up is found out
  /// by the first request (or ``assetStatus(locale:)``).
  public func checkReady(locale: Locale?) throws(SpeechTranscriptionError) {
    if let locale, Self.languageCode(of: locale) == nil {
      throw .unsupportedLocale(locale, model: endpoint.model ?? serverName)
    }
  }

  /// Nothing to load here: the server holds the model.
  public func prepare() throws(SpeechTranscriptionError) {}

  /// `installed` when the server answers (any HTTP status), `unsupported` for a language Whisper
  /// does not know.
  ///
  /// - Throws: ``SpeechTranscriptionError/serverUnreachable(url:reason:)`` (or ``SpeechTranscriptionError/serverTimedOut(url:seconds:)``)
  ///   when it does not answer.
  public func assetStatus(locale: Locale?) async throws(SpeechTranscriptionError) -> AssetInventory.Status {
    if let locale, Self.languageCode(of: locale) == nil { return .unsupported }
    let probe = HTTPClientRequest(
      method: "GET", url: endpoint.url, headers: authorization, timeout: connectTimeout + .seconds(5),
      connectTimeout: connectTimeout)
    _ = try await send(probe, shouldAbort: { false })
    return .installed
  }

  /// Sends `audio` to the server, in pieces when it is longer than ``limits`` allows; see
  /// ``TranscriptionBackend/transcribe(_:request:shouldAbort:onSegment:)``.
  ///
  /// A custom language model cannot steer a server's decoder; its prompt (vocabulary, phrases or
  /// commands) is sent as the request's `prompt`, and the transcriber still rewrites the results
  /// with its pronunciations and commands.
  public func transcribe(
    _ audio: AudioBuffer, request: TranscriptionRequest, shouldAbort: @escaping @Sendable () -> Bool,
    onSegment: @escaping @Sendable (TranscribedSegment) -> Void
  ) async throws(SpeechTranscriptionError) -> String? {
    guard !audio.samples.isEmpty else { return request.language }
    let pieces = try await plan(audio, shouldAbort: shouldAbort)
    var language = request.language
    let sampleRate = AudioFormat.speechAnalysis.sampleRate
    for piece in pieces {
      if shouldAbort() || Task.isCancelled { throw .cancelled }
      var pieceRequest = request
      // Every piece after the first in the language the first was heard in, so that a quiet
      // piece is not taken for another language.
      pieceRequest.language = language
      let reply = try await transcribe(
        AudioBuffer(format: .speechAnalysis, samples: Array(audio.samples[piece])), request: pieceRequest,
        shouldAbort: shouldAbort)
      language = language ?? reply.languageCode
      let offset = Double(piece.lowerBound) / sampleRate
      for segment in reply.transcribedSegments(offset: offset, duration: Double(piece.count) / sampleRate) {
        onSegment(segment)
      }
    }
    return language
  }

  /// The pieces to send: the whole recording when it fits one request, else pieces cut at pauses.
  func plan(_ audio: AudioBuffer, shouldAbort: @escaping @Sendable () -> Bool) async throws(SpeechTranscriptionError)
    -> [Range<Int>]
  {
    let limit = limits.maximumSamples
    guard audio.samples.count > limit else { return [0..<audio.samples.count] }
    let path = modelDirectory.file(named: VoiceActivityDetector.modelFileName).path
    let detector = try VoiceActivityDetector(modelPath: path)
    var probabilities: [Float] = []
    // Thirty-second slices of whole windows, so an abort is noticed between them.
    let slice = VoiceActivityDetector.windowSize * 938
    var start = 0
    while start < audio.samples.count {
      if shouldAbort() || Task.isCancelled { throw .cancelled }
      let end = min(start + slice, audio.samples.count)
      probabilities += try await detector.speechProbabilities(Array(audio.samples[start..<end]))
      start = end
    }
    return TranscriptionChunkPlan(
      sampleCount: audio.samples.count, limit: limit, speechProbabilities: probabilities,
      windowSize: VoiceActivityDetector.windowSize
    ).pieces
  }

  /// One request: `audio` (at most ``limits``) uploaded, its `verbose_json` reply read.
  private func transcribe(
    _ audio: AudioBuffer, request: TranscriptionRequest, shouldAbort: @escaping @Sendable () -> Bool
  ) async throws(SpeechTranscriptionError) -> VerboseTranscription {
    let upload = HTTPClientRequest(
      method: "POST", url: transcriptionsURL, headers: authorization, body: .multipart(parts(for: audio, request)),
      timeout: timeout, connectTimeout: connectTimeout)
    let response = try await send(upload, shouldAbort: shouldAbort)
    guard (200..<300).contains(response.status) else {
      throw .serverError(
        url: serverName, status: response.status, message: Self.serverMessage(response.body, status: response.status))
    }
    do {
      return try VerboseTranscription(json: response.body)
    } catch {
      let start = String(response.text.prefix(120)).replacingOccurrences(of: "\n", with: " ")
      throw .invalidServerResponse(url: serverName, detail: "expected verbose_json, got \"\(start)\"")
    }
  }

  /// The multipart form of one request.
  func parts(for audio: AudioBuffer, _ request: TranscriptionRequest) -> [MultipartPart] {
    var parts = [
      MultipartPart(
        name: "file", filename: "audio.wav", contentType: "audio/wav", data: Array(WAVWriter.fileData(for: audio)))
    ]
    if let model = endpoint.model { parts.append(MultipartPart(name: "model", value: model)) }
    parts.append(MultipartPart(name: "response_format", value: "verbose_json"))
    if request.wantsWordTimestamps { parts.append(MultipartPart(name: "timestamp_granularities[]", value: "word")) }
    parts.append(MultipartPart(name: "timestamp_granularities[]", value: "segment"))
    if let language = request.language { parts.append(MultipartPart(name: "language", value: language)) }
    let prompt = [request.prompt, request.steering?.prompt].compactMap { $0 }.joined(separator: " ")
    if !prompt.isEmpty { parts.append(MultipartPart(name: "prompt", value: prompt)) }
    return parts
  }

  /// The bearer token header, when there is a key.
  private var authorization: [String: String] {
    endpoint.apiKey.map { ["Authorization": "Bearer \($0)"] } ?? [:]
  }

  /// Sends `request`, giving up with ``SpeechTranscriptionError/cancelled`` as soon as
  /// `shouldAbort` says so or the task is cancelled.
  private func send(_ request: HTTPClientRequest, shouldAbort: @escaping @Sendable () -> Bool)
    async throws(SpeechTranscriptionError) -> HTTPClientResponse
  {
    let client = client
    let outcome = await withTaskGroup(of: Result<HTTPClientResponse, HTTPClientError>?.self) { group in
      group.addTask { () async -> Result<HTTPClientResponse, HTTPClientError>? in
        do throws(HTTPClientError) {
          return .success(try await client.send(request))
        } catch {
          return .failure(error)
        }
      }
      group.addTask { () async -> Result<HTTPClientResponse, HTTPClientError>? in
        while !Task.isCancelled, !shouldAbort() { try? await Task.sleep(for: .milliseconds(100)) }
        return nil
      }
      let first: Result<HTTPClientResponse, HTTPClientError>? = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    switch outcome {
    case .success(let response): return response
    case .failure(let error): throw map(error)
    case nil: throw .cancelled
    }
  }

  /// `error` in the terms of a transcription, naming the server's URL as configured.
  func map(_ error: HTTPClientError) -> SpeechTranscriptionError {
    switch error {
    case .cannotConnect(_, let reason): .serverUnreachable(url: serverName, reason: reason)
    case .timedOut(_, let seconds): .serverTimedOut(url: serverName, seconds: seconds)
    case .cancelled: .cancelled
    case .transport(_, let reason): .serverUnreachable(url: serverName, reason: "the connection failed: \(reason)")
    case .invalidURL: .serverUnreachable(url: serverName, reason: "it is not an http or https URL with a host")
    }
  }

  /// The server's own words from an error reply: OpenAI's `{"error": {"message": …}}`,
  /// whisper-server's `{"error": "…"}`, FastAPI's `{"detail": …}`, else the first line of text.
  static func serverMessage(_ body: [UInt8], status: Int) -> String {
    if let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] {
      if let error = object["error"] as? [String: Any], let message = error["message"] as? String { return message }
      if let message = object["error"] as? String { return message }
      if let message = object["message"] as? String { return message }
      if let detail = object["detail"] as? String { return detail }
      if let detail = object["detail"] {
        return String(describing: detail).replacingOccurrences(of: "\n", with: " ")
      }
    }
    let line = String(decoding: body, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    return trimmed.isEmpty ? "no message (HTTP \(status))" : String(trimmed.prefix(300))
  }

  /// The ISO 639-1 code for `locale`, when Whisper knows its language.
  private static func languageCode(of locale: Locale) -> String? {
    SpeechTranscriber.languageCode(of: locale).flatMap { WhisperContext.languageCode(named: $0) }
  }
}
