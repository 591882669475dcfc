import AudioIO
import Foundation
import Networking
import Testing

@testable import SpeechRecognition

/// The OpenAI-compatible backend's logic around the server: the request it builds, the errors
/// it maps (no server needed: canned bodies and the HTTP client's error values).
@Suite("OpenAI transcription backend (logic)")
struct OpenAITranscriptionBackendTests {
  let backend = OpenAITranscriptionBackend(
    endpoint: .init(url: URL(string: "http://gpu-box:8080")!, model: "whisper-1", apiKey: "secret"))

  @Test("the form: a 16-bit WAV file, model, verbose_json, both granularities, language and prompt")
  func form() throws {
    let audio = AudioBuffer(format: .speechAnalysis, samples: [0, 0.5, -0.5, 1])
    let parts = backend.parts(for: audio, TranscriptionRequest(language: "en", prompt: "Zoë, Kowalski"))
    let file = try #require(parts.first)
    #expect(file.name == "file" && file.filename == "audio.wav" && file.contentType == "audio/wav")
    #expect(file.data.count == 44 + 2 * 4)
    #expect(Array(file.data.prefix(4)) == Array("RIFF".utf8))
    let fields = parts.dropFirst().map { "\($0.name)=\(String(decoding: $0.data, as: UTF8.self))" }
    #expect(
      fields == [
        "model=whisper-1", "response_format=verbose_json", "timestamp_granularities[]=word",
        "timestamp_granularities[]=segment", "language=en", "prompt=Zoë, Kowalski",
      ])
    let detect = backend.parts(for: audio, TranscriptionRequest(language: nil, wantsWordTimestamps: false))
    #expect(!detect.contains { $0.name == "language" || $0.name == "prompt" })
    #expect(detect.filter { $0.name == "timestamp_granularities[]" }.count == 1)
  }

  @Test("the endpoint's path is added to the base URL, once")
  func endpointURL() {
    #expect(backend.transcriptionsURL.absoluteString == "http://gpu-box:8080/v1/audio/transcriptions")
    let withV1 = OpenAITranscriptionBackend(endpoint: .init(url: URL(string: "https://api.example.com/v1/")!))
    #expect(withV1.transcriptionsURL.absoluteString == "https://api.example.com/v1/audio/transcriptions")
  }

  @Test("HTTP client errors become transcription errors that name the configured URL")
  func errorMapping() {
    let url = "http://gpu-box:8080/v1/audio/transcriptions"
    #expect(
      backend.map(.cannotConnect(url: url, reason: "Connection refused"))
        == .serverUnreachable(url: "http://gpu-box:8080", reason: "Connection refused"))
    #expect(backend.map(.timedOut(url: url, seconds: 600)) == .serverTimedOut(url: "http://gpu-box:8080", seconds: 600))
    #expect(backend.map(.cancelled) == .cancelled)
    let message = SpeechTranscriptionError.serverError(url: "http://gpu-box:8080", status: 413, message: "too large")
      .localizedDescription
    #expect(message == "the transcription server http://gpu-box:8080 answered HTTP 413: too large")
    #expect(!message.contains("\n"))
  }

  @Test("the per-request limit in samples: the smaller of duration and bytes")
  func limits() {
    #expect(OpenAITranscriptionBackend.Limits().maximumSamples == 300 * 16_000)
    #expect(OpenAITranscriptionBackend.Limits(maximumDuration: 600, maximumBytes: 1_000_044).maximumSamples == 500_000)
  }

  @Test("server error bodies: OpenAI's, whisper-server's, FastAPI's, plain text, empty")
  func serverMessages() {
    func message(_ body: String, _ status: Int = 400) -> String {
      OpenAITranscriptionBackend.serverMessage(Array(body.utf8), status: status)
    }
    #expect(
      message(#"{"error":{"message":"Invalid file format.","type":"invalid_request_error"}}"#) == "Invalid file format."
    )
    #expect(message(#"{"error":"no 'file' field in the request"}"#) == "no 'file' field in the request")
    #expect(message(#"{"detail":"Model 'x' not found"}"#, 404) == "Model 'x' not found")
    #expect(message("Bad Gateway\n<html>...</html>", 502) == "Bad Gateway")
    #expect(message("", 503) == "no message (HTTP 503)")
  }
}
