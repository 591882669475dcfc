import Foundation
import Networking
import TestSupport
import Testing

/// A multipart upload to a real whisper-server (Whisper base).
@Suite("HTTP client against whisper-server", .serialized)
struct WhisperServerTests {
  @Test("jfk.wav uploaded as multipart/form-data is transcribed")
  func transcribeUpload() async throws {
    let server = try await ReferenceServer.start(
      .whisper, model: Fixtures.models.appendingPathComponent("ggml-base.bin"))
    defer { server.stop() }
    let audio = try [UInt8](Data(contentsOf: Fixtures.jfk))
    let request = HTTPClientRequest(
      method: "POST", url: server.baseURL.appendingPathComponent("v1/audio/transcriptions"),
      body: .multipart([
        MultipartPart(name: "file", filename: "jfk.wav", contentType: "audio/wav", data: audio),
        MultipartPart(name: "response_format", value: "verbose_json"),
        MultipartPart(name: "temperature", value: "0"),
      ]), timeout: .seconds(120))
    let response = try await HTTPClient.shared.send(request)
    #expect(response.status == 200, "\(response.text)")
    let json = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
    let text = (json?["text"] as? String ?? "").lowercased()
    #expect(text.contains("ask not what your country"), "text: \(text)")
    #expect((json?["segments"] as? [Any])?.isEmpty == false)
  }
}
