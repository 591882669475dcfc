import AudioIO
import Foundation
import SpeechRecognition
import VoiceNotes

/// The OpenAI-compatible API under `/v1`, over the library's local engines: `GET /v1/models`,
/// `POST /v1/chat/completions` and `POST /v1/audio/transcriptions`. Every failure is a 4xx or
/// 5xx with OpenAI's one-line error shape; requests to one model wait their turn.
struct OpenAIRoutes: Sendable {
  let library: Library
  let settings: WebApp.Settings
  let catalog: OpenAIModelCatalog
  let chat: OpenAIChatCompletions
  let queue: OpenAIModelQueue
  /// Where uploads wait while they are read, inside the library.
  let uploadFolder: URL

  /// The routes over `library`, with uploads up to the settings' limit kept in `uploadFolder`.
  init(library: Library, settings: WebApp.Settings, uploadFolder: URL) {
    self.library = library
    self.settings = settings
    self.uploadFolder = uploadFolder
    catalog = OpenAIModelCatalog(library: library)
    queue = OpenAIModelQueue()
    chat = OpenAIChatCompletions(catalog: catalog, queue: queue)
  }

  /// Audio goes to a file (up to the upload limit); chat bodies stay in memory (up to 8 MB).
  func bodyPolicy(for head: HTTPRequest.Head) -> HTTPBodyPolicy {
    switch (head.method, head.path) {
    case ("POST", "/v1/audio/transcriptions"):
      guard MultipartFormData.boundary(in: head.header("content-type") ?? "") != nil else {
        return .reject(
          OpenAIError(
            415, "send the audio as multipart/form-data with the fields file and model (as OpenAI clients do)"
          ).response)
      }
      try? FileManager.default.createDirectory(at: uploadFolder, withIntermediateDirectories: true)
      return .file(folder: uploadFolder, limit: settings.maximumUpload)
    case ("POST", "/v1/chat/completions"):
      if let type = head.contentType, type != "application/json" {
        return .reject(OpenAIError(415, "send the request as JSON (Content-Type: application/json)").response)
      }
      return .memory(limit: 8 << 20)
    default:
      return .memory(limit: 64 << 10)
    }
  }

  /// The answer to one request.
  func respond(to request: HTTPRequest) async -> HTTPResponse {
    do {
      return try await route(request)
    } catch {
      return error.response
    }
  }

  private func route(_ request: HTTPRequest) async throws(OpenAIError) -> HTTPResponse {
    let head = request.head
    let parts = head.path.split(separator: "/").map(String.init).dropFirst()
    switch Array(parts) {
    case ["models"]:
      try allow(head.method, "GET")
      return .json(Self.encode(["object": "list", "data": await catalog.entries().map(Self.dictionary)]))
    case let path where path.count >= 2 && path[0] == "models":
      try allow(head.method, "GET")
      let id = path.dropFirst().joined(separator: "/")
      guard let entry = await catalog.entries().first(where: { $0.id == id }) else {
        throw .modelNotFound("the model '\(id.prefix(60))' is not installed here; GET /v1/models lists those that are")
      }
      return .json(Self.encode(Self.dictionary(entry)))
    case ["chat", "completions"]:
      try allow(head.method, "POST")
      return try await chat.respond(to: try OpenAIChatRequest(json: request.body))
    case ["audio", "transcriptions"]:
      try allow(head.method, "POST")
      return try await transcribe(request)
    default:
      throw OpenAIError(
        404,
        "no endpoint \(head.path.prefix(80)); this server answers GET /v1/models, POST /v1/chat/completions and POST /v1/audio/transcriptions"
      )
    }
  }

  private func allow(_ method: String, _ allowed: String) throws(OpenAIError) {
    guard method == allowed || (method == "HEAD" && allowed == "GET") else {
      var error = OpenAIError(405, "\(method) is not allowed here; use \(allowed)")
      error.allow = allowed
      throw error
    }
  }

  // MARK: - Transcriptions

  private func transcribe(_ request: HTTPRequest) async throws(OpenAIError) -> HTTPResponse {
    guard let upload = request.bodyFile else { throw .invalid("send the audio as multipart/form-data", param: "file") }
    defer { try? FileManager.default.removeItem(at: upload) }
    let form: MultipartFormData
    do {
      let body = try Data(contentsOf: upload, options: .alwaysMapped)
      form = try MultipartFormData(body, contentType: request.head.header("content-type") ?? "")
    } catch let error as MultipartFormData.ParseError {
      switch error {
      case .noBoundary: throw .invalid("the multipart body has no boundary in its Content-Type")
      case .malformed(let detail): throw .invalid("the multipart body cannot be read: \(detail)")
      }
    } catch {
      throw OpenAIError(500, "the upload could not be read back; check free space in the library folder")
    }
    let fields = try OpenAITranscriptionRequest(form)
    let model = try await catalog.speechModel(named: fields.model)
    let suffix = fields.fileExtension.isEmpty ? "" : ".\(fields.fileExtension)"
    let audio = uploadFolder.appendingPathComponent(".transcription-\(UUID().uuidString.lowercased())\(suffix)")
    guard FileManager.default.createFile(atPath: audio.path, contents: fields.file.data) else {
      throw OpenAIError(500, "could not store the upload; check free space in the library folder")
    }
    defer { try? FileManager.default.removeItem(at: audio) }
    var configured = FileTranscriber(model: model, locale: fields.language.map { Locale(identifier: $0) })
    configured.contextualStrings = fields.prompt.map { [$0] } ?? []
    let transcriber = configured
    let name = fields.file.fileName ?? "the file"
    let transcript: Transcript
    do {
      transcript = try await queue.run("speech:\(model.name)") {
        do {
          return try await transcriber.transcribe(audio)
        } catch SpeechTranscriptionError.emptyResult {
          // No speech in the file: an empty transcript, as OpenAI answers for silence.
          let duration = (try? AudioFile(forReading: audio))?.duration ?? 0
          return Transcript(language: fields.language, duration: duration, segments: [])
        }
      }
    } catch let error as AudioIOError {
      throw .invalid(
        "\(name) could not be decoded as audio: \(Self.reason(error).replacingOccurrences(of: audio.path, with: name))",
        param: "file")
    } catch {
      FileHandle.standardError.write(Data("voicenotes serve: transcription failed: \(Self.reason(error))\n".utf8))
      throw OpenAIError(
        500, "the transcription failed: \(Self.reason(error).replacingOccurrences(of: audio.path, with: name))")
    }
    return OpenAITranscriptionResponse(
      transcript: transcript, format: fields.responseFormat, includesWords: fields.includesWords
    ).response
  }

  // MARK: - Helpers

  static func dictionary(_ entry: OpenAIModelCatalog.Entry) -> [String: Any] {
    ["id": entry.id, "object": entry.object, "created": entry.created, "owned_by": entry.ownedBy]
  }

  static func encode(_ object: [String: Any]) -> Data {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
  }

  static func reason(_ error: any Error) -> String {
    ((error as? LocalizedError)?.errorDescription ?? "\(error)").replacingOccurrences(of: "\n", with: " ")
  }
}
