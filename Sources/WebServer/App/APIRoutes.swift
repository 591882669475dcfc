import AudioIO
import Foundation
import LanguageModels
import SpeechRecognition
import Synchronization
import VoiceNotes

/// The JSON API (docs/web-api.md): each route reads its input, makes one library call and
/// encodes the answer; every failure becomes a 4xx or 5xx with a one-line message.
struct APIRoutes: Sendable {
  let library: Library
  let settings: WebApp.Settings
  let tokenRequired: Bool
  let conversations: AskConversations

  /// A route's failure: its status and message.
  struct Failure: Error {
    var status: Int
    var message: String
    var headers: [(name: String, value: String)] = []

    init(_ status: Int, _ message: String, headers: [(name: String, value: String)] = []) {
      self.status = status
      self.message = message
      self.headers = headers
    }
  }

  func respond(to request: HTTPRequest) async -> HTTPResponse {
    do {
      return try await route(request)
    } catch let failure as Failure {
      return .error(failure.status, failure.message, headers: failure.headers)
    } catch {
      let (status, message) = Self.describe(error)
      return .error(status, message)
    }
  }

  // MARK: - Routing

  private func route(_ request: HTTPRequest) async throws -> HTTPResponse {
    let head = request.head
    let parts = head.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    // parts[0] == "api"
    let method = head.method == "HEAD" ? "GET" : head.method
    switch Array(parts.dropFirst()) {
    case ["status"]:
      try allow(method, "GET")
      return try await status()
    case ["notes"]:
      try allow(method, "GET")
      return try await notes(head.query)
    case let path where path.count >= 2 && path[0] == "notes":
      let id = try Self.checkedID(path[1])
      switch Array(path.dropFirst(2)) {
      case []:
        try allow(method, "GET", "PATCH", "DELETE")
        switch method {
        case "GET": return try await note(id)
        case "PATCH": return try await rename(id, request)
        default: return try await delete(id)
        }
      case ["retry"]:
        try allow(method, "POST")
        return try await retry(id)
      case ["audio"]:
        try allow(method, "GET")
        return try await audio(id, head)
      case ["export"]:
        try allow(method, "GET")
        return try await export(id, head.query)
      case ["related"]:
        try allow(method, "GET")
        return try await related(id)
      case let rest where rest.count == 2 && rest[0] == "speakers":
        try allow(method, "PUT")
        guard let number = Int(rest[1]), number >= 1 else {
          throw Failure(404, "'\(rest[1].prefix(20))' is not a speaker number; use 1 for \"Speaker 1\"")
        }
        return try await nameSpeaker(id, number, request)
      default:
        throw Failure(404, "no API route \(head.path.prefix(100)); see docs/web-api.md")
      }
    case ["speakers"]:
      try allow(method, "GET")
      return .json(
        APIPayload.encode(APIPayload.Voices(speakers: try await library.voices().map(APIPayload.Voice.init))))
    case let path where path.count >= 2 && path[0] == "speakers":
      let id = try Self.checkedID(path[1])
      switch Array(path.dropFirst(2)) {
      case []:
        try allow(method, "PATCH", "DELETE")
        return method == "PATCH" ? try await renameVoice(id, request) : try await forgetVoice(id)
      case ["merge"]:
        try allow(method, "POST")
        return try await mergeVoice(id, request)
      default:
        throw Failure(404, "no API route \(head.path.prefix(100)); see docs/web-api.md")
      }
    case ["imports"]:
      try allow(method, "POST")
      return try await importUpload(request)
    case ["search"]:
      try allow(method, "GET")
      return try await search(head.query)
    case ["ask"]:
      try allow(method, "POST")
      return try await ask(request)
    case ["tasks"]:
      try allow(method, "GET")
      return try await tasks(head.query)
    case let path where path.count == 2 && path[0] == "tasks":
      try allow(method, "PATCH")
      return try await tick(try Self.checkedID(path[1]), request)
    case ["models"]:
      try allow(method, "GET")
      return .json(APIPayload.encode(await models()))
    case let path where path.count == 3 && path[0] == "models" && path[2] == "install":
      try allow(method, "POST")
      try await library.startInstalling(path[1])
      return .json(APIPayload.encode(["name": path[1], "status": "downloading"]), status: 202)
    case ["samples", "restore"]:
      try allow(method, "POST")
      return try await restoreSamples()
    case ["recordings"]:
      try allow(method, "POST")
      return try await startRecording()
    case let path where path.count == 3 && path[0] == "recordings":
      let id = try Self.checkedID(path[1])
      try allow(method, "POST")
      switch path[2] {
      case "audio": return try await appendAudio(id, request)
      case "stop": return try await stopRecording(id)
      default: throw Failure(404, "no API route \(head.path.prefix(100)); see docs/web-api.md")
      }
    default:
      throw Failure(404, "no API route \(head.path.prefix(100)); see docs/web-api.md")
    }
  }

  private func allow(_ method: String, _ allowed: String...) throws {
    guard allowed.contains(method) else {
      throw Failure(
        405, "\(method) is not allowed here; use \(allowed.joined(separator: " or "))",
        headers: [("Allow", allowed.joined(separator: ", "))])
    }
  }

  /// An id from the request, only if it has our format (hex digits and dashes, 4 to 36 of them).
  static func checkedID(_ text: String) throws -> String {
    let id = text.lowercased()
    guard (4...36).contains(id.count), id.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
      throw Failure(404, "'\(text.prefix(40))' is not a note, item or recording id")
    }
    return id
  }

  // MARK: - Notes

  private func status() async throws -> HTTPResponse {
    let models = await library.models()
    let speech = library.configuration.speechModel
    let language = library.configuration.languageModel
    let availability = library.languageModelAvailability
    let reason = library.languageModelExplanation
    let payload = APIPayload.Status(
      version: settings.version, library: library.configuration.folder.lastPathComponent,
      noteCount: try await library.count(),
      speechModel: .init(name: speech.name, status: Self.state(of: speech.name, in: models)),
      languageModel: .init(
        name: language.name, status: Self.state(of: language.name, in: models), available: availability == .available,
        reason: reason),
      worker: .init(busy: library.noteInProgress != nil, noteID: library.noteInProgress), tokenRequired: tokenRequired)
    return .json(APIPayload.encode(payload))
  }

  private func notes(_ query: [String: String]) async throws -> HTTPResponse {
    var limit = 50
    if let text = query["limit"] {
      guard let value = Int(text), (1...200).contains(value) else {
        throw Failure(400, "limit must be a whole number from 1 to 200")
      }
      limit = value
    }
    var cursor: NotePage.Cursor?
    if let text = query["before"], !text.isEmpty {
      guard let parsed = NotePage.Cursor(text) else {
        throw Failure(400, "before must be the `next` value of an earlier page")
      }
      cursor = parsed
    }
    let page = try await library.page(after: cursor, limit: limit)
    let payload = APIPayload.NotesPage(
      notes: page.notes.map { APIPayload.NoteSummary($0, progress: library.progress(of: $0.id)) },
      next: page.next?.description, total: page.total)
    return .json(APIPayload.encode(payload))
  }

  private func note(_ id: String) async throws -> HTTPResponse {
    let note = try await library.note(id)
    return .json(APIPayload.encode(APIPayload.Note(note, progress: library.progress(of: note.id))))
  }

  private func rename(_ id: String, _ request: HTTPRequest) async throws -> HTTPResponse {
    struct Body: Decodable { var title: String }
    let body: Body = try Self.decode(request, example: #"{"title": "Offsite plans"}"#)
    let note = try await library.rename(id, to: body.title)
    return .json(APIPayload.encode(APIPayload.Note(note, progress: library.progress(of: note.id))))
  }

  private func delete(_ id: String) async throws -> HTTPResponse {
    let note = try await library.delete(id)
    return .json(APIPayload.encode(["deleted": note.id]))
  }

  private func retry(_ id: String) async throws -> HTTPResponse {
    let note = try await library.retry(id)
    return .json(APIPayload.encode(APIPayload.Note(note, progress: nil)))
  }

  private func audio(_ id: String, _ head: HTTPRequest.Head) async throws -> HTTPResponse {
    let note = try await library.note(id)
    let url = library.audioURL(of: note)
    guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int64 else {
      throw Failure(404, "note \(note.id.prefix(8)) has no audio file")
    }
    var headers: [(name: String, value: String)] = [
      ("Content-Type", Self.audioContentType(of: url.pathExtension)), ("Accept-Ranges", "bytes"),
      ("Cache-Control", "no-cache"),
    ]
    guard let range = head.header("range") else {
      return HTTPResponse(status: 200, headers: headers, body: .file(url, offset: 0, length: size))
    }
    guard let (start, end) = Self.byteRange(range, size: size) else {
      throw Failure(416, "the requested range is outside the file", headers: [("Content-Range", "bytes */\(size)")])
    }
    headers.append(("Content-Range", "bytes \(start)-\(end)/\(size)"))
    return HTTPResponse(status: 206, headers: headers, body: .file(url, offset: start, length: end - start + 1))
  }

  private func export(_ id: String, _ query: [String: String]) async throws -> HTTPResponse {
    let name = query["format"] ?? "md"
    guard let format = NoteExportFormat(rawValue: name) else {
      throw Failure(
        400,
        "'\(name.prefix(20))' is not an export format; use one of \(NoteExportFormat.allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    let note = try await library.note(id)
    let text = try format.render(note, words: true)
    let file = format.fileName(for: note)
    let ascii = String(file.unicodeScalars.map { $0.isASCII && $0 != "\"" ? Character($0) : "_" })
    let encoded = file.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ascii
    return HTTPResponse(
      status: 200,
      headers: [
        ("Content-Type", format.mimeType),
        ("Content-Disposition", "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"),
      ], body: .data(Data(text.utf8)))
  }

  // MARK: - Speakers

  private func nameSpeaker(_ id: String, _ number: Int, _ request: HTTPRequest) async throws -> HTTPResponse {
    struct Body: Decodable {
      var name: String?
      enum CodingKeys: CodingKey { case name }
      /// `name` must be there: a string names the speaker, null unnames it.
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.name) else {
          throw DecodingError.keyNotFound(CodingKeys.name, .init(codingPath: [], debugDescription: "no name"))
        }
        name = try container.decodeIfPresent(String.self, forKey: .name)
      }
    }
    let body: Body = try Self.decode(request, example: #"{"name": "Priya"} (or {"name": null} to unname)"#)
    let note =
      if let name = body.name {
        try await library.nameSpeaker(id, speaker: number, as: name)
      } else {
        try await library.unnameSpeaker(id, speaker: number)
      }
    return .json(APIPayload.encode(APIPayload.Note(note, progress: library.progress(of: note.id))))
  }

  /// The named voice with this identifier.
  private func voice(_ id: String) async throws -> NamedVoice {
    guard let voice = try await library.voices().first(where: { $0.id == id }) else {
      throw Failure(404, "no named speaker has the id \(id.prefix(36)); GET /api/speakers lists them")
    }
    return voice
  }

  private func renameVoice(_ id: String, _ request: HTTPRequest) async throws -> HTTPResponse {
    struct Body: Decodable { var name: String }
    let body: Body = try Self.decode(request, example: #"{"name": "Priya"}"#)
    let renamed = try await library.renameVoice(try await voice(id).name, to: body.name)
    return .json(APIPayload.encode(APIPayload.Voice(renamed)))
  }

  private func mergeVoice(_ id: String, _ request: HTTPRequest) async throws -> HTTPResponse {
    struct Body: Decodable { var into: String }
    let body: Body = try Self.decode(request, example: #"{"into": "<the id of the speaker to keep>"}"#)
    let source = try await voice(id)
    let target = try await voice(try Self.checkedID(body.into))
    let merged = try await library.mergeVoice(source.name, into: target.name)
    return .json(APIPayload.encode(APIPayload.Voice(merged)))
  }

  private func forgetVoice(_ id: String) async throws -> HTTPResponse {
    let (voice, notes) = try await library.forgetVoice(try await voice(id).name)
    struct Forgotten: Encodable {
      var forgotten: String
      var notes: Int
    }
    return .json(APIPayload.encode(Forgotten(forgotten: voice.id, notes: notes)))
  }

  private func importUpload(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard let upload = request.bodyFile else { throw Failure(400, "send the recording's bytes as the body") }
    defer { try? FileManager.default.removeItem(at: upload) }
    let name = Self.cleanFileName(request.head.query["name"] ?? "recording")
    guard (try? FileManager.default.attributesOfItem(atPath: upload.path))?[.size] as? Int64 ?? 0 > 0 else {
      throw Failure(422, "\(name) is empty; choose a recording")
    }
    // The extension tells the stored file's type; the decoder reads the contents either way.
    let fileExtension = URL(fileURLWithPath: name).pathExtension.lowercased()
    let typed = upload.deletingLastPathComponent().appendingPathComponent(
      upload.lastPathComponent + (fileExtension.isEmpty || fileExtension.count > 5 ? "" : ".\(fileExtension)"))
    try FileManager.default.moveItem(at: upload, to: typed)
    defer { try? FileManager.default.removeItem(at: typed) }
    do {
      let note = try await library.importAudio(from: typed, originalFileName: name)
      return .json(APIPayload.encode(APIPayload.Note(note, progress: nil)), status: 201)
    } catch let error as AudioIOError {
      // The decoder's own message, as the command line gives it, naming the upload, not our file.
      throw Failure(422, Self.reason(error).replacingOccurrences(of: typed.path, with: name))
    }
  }

  private func search(_ query: [String: String]) async throws -> HTTPResponse {
    let words = query["q"] ?? ""
    let scopeName = query["scope"] ?? "all"
    guard let scope = Self.scope(named: scopeName) else {
      throw Failure(
        400,
        "'\(scopeName.prefix(20))' is not a scope; use all, title, transcript, summary, tags, people or action-items")
    }
    var limit = 20
    if let text = query["limit"] {
      guard let value = Int(text), (1...100).contains(value) else {
        throw Failure(400, "limit must be a whole number from 1 to 100")
      }
      limit = value
    }
    var mode: SearchMode?
    if let name = query["mode"], !name.isEmpty {
      guard let named = SearchMode(rawValue: name) else {
        throw Failure(400, "'\(name.prefix(20))' is not a search mode; use hybrid, keyword or semantic")
      }
      mode = named
    }
    let used = if let mode { mode } else { try await library.defaultSearchMode(scope: scope) }
    guard !words.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      return .json(APIPayload.encode(APIPayload.SearchResults(results: [], mode: used.rawValue)))
    }
    let results = try await library.search(words, scope: scope, mode: used, limit: limit)
    return .json(APIPayload.encode(APIPayload.SearchResults(results: hits(results), mode: used.rawValue)))
  }

  private func hits(_ results: [SearchResult]) -> [APIPayload.SearchHit] {
    results.map { result in
      APIPayload.SearchHit(
        note: APIPayload.NoteSummary(result.note, progress: library.progress(of: result.note.id)),
        field: Self.scopeName(result.matchedField),
        snippet: result.snippetRuns.map { APIPayload.SnippetRun(text: $0.text, match: $0.isMatch) },
        segmentStart: result.time)
    }
  }

  private func related(_ id: String) async throws -> HTTPResponse {
    let note = try await library.note(id)
    let results = try await library.relatedNotes(to: note.id)
    return .json(
      APIPayload.encode(APIPayload.SearchResults(results: hits(results), mode: SearchMode.semantic.rawValue)))
  }

  /// Answers a question as a stream of server-sent events: `conversation` (its identifier, for
  /// follow-ups), `text` (each piece of the answer as it is written), then `answer` (the whole
  /// answer with its citations) or `error`.
  private func ask(_ request: HTTPRequest) async throws -> HTTPResponse {
    struct Body: Decodable {
      var question: String
      var conversation: String?
    }
    let body: Body = try Self.decode(request, example: #"{"question": "what did I promise Kofi?"}"#)
    let question = body.question.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !question.isEmpty, question.count <= NoteAssistant.maximumQuestionLength else {
      throw Failure(400, "ask a question of 1 to \(NoteAssistant.maximumQuestionLength) characters")
    }
    if let explanation = library.languageModelExplanation { throw Failure(409, explanation) }
    let (id, assistant) = await conversations.conversation(body.conversation)
    let task = Mutex<Task<Void, Never>?>(nil)
    let events = HTTPEventStream(onClose: { task.withLock { $0?.cancel() } })
    events.send(event: "conversation", data: String(decoding: APIPayload.encode(["id": id]), as: UTF8.self))
    let work = Task {
      do {
        let answer = try await assistant.ask(question) { piece in
          events.send(event: "text", data: String(decoding: APIPayload.encode(["text": piece]), as: UTF8.self))
        }
        events.send(
          event: "answer", data: String(decoding: APIPayload.encode(APIPayload.Answer(answer)), as: UTF8.self))
      } catch {
        let message = (error as? LocalizedError)?.errorDescription ?? "\(error)"
        events.send(event: "error", data: String(decoding: APIPayload.encode(["error": message]), as: UTF8.self))
      }
      events.close()
    }
    task.withLock { $0 = work }
    return HTTPResponse(
      status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")],
      body: .events(events))
  }

  private func tasks(_ query: [String: String]) async throws -> HTTPResponse {
    let completed: Bool
    switch query["completed"] ?? "false" {
    case "true", "1": completed = true
    case "false", "0": completed = false
    default: throw Failure(400, "completed must be true or false")
    }
    let person = query["person"].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
    let groups = try await library.actionItems(includeCompleted: completed, person: person)
    let payload = APIPayload.Tasks(
      groups: groups.map {
        APIPayload.TaskGroup(
          noteID: $0.noteID, noteTitle: $0.noteTitle, noteCreatedAt: $0.noteCreatedAt,
          items: $0.items.map(APIPayload.ActionItem.init))
      }, people: try await library.actionItemPeople())
    return .json(APIPayload.encode(payload))
  }

  private func tick(_ id: String, _ request: HTTPRequest) async throws -> HTTPResponse {
    struct Body: Decodable { var done: Bool }
    let body: Body = try Self.decode(request, example: #"{"done": true}"#)
    let result = try await library.setCompleted(body.done, actionItem: id)
    return .json(APIPayload.encode(APIPayload.TaskChange(noteID: result.note.id, item: .init(result.item))))
  }

  private func models() async -> APIPayload.Models {
    let all = await library.models()
    func payload(_ model: ModelStatus) -> APIPayload.Model {
      APIPayload.Model(name: model.name, summary: model.summary, size: model.size, status: model.state.rawValue)
    }
    return APIPayload.Models(
      speech: all.filter { $0.kind == .speech }.map(payload),
      language: all.filter { $0.kind == .language }.map(payload),
      speakers: all.filter { $0.kind == .speakers }.map(payload),
      embedding: all.filter { $0.kind == .embedding }.map(payload),
      defaults: .init(
        speech: library.configuration.speechModel.name, language: library.configuration.languageModel.name))
  }

  private func restoreSamples() async throws -> HTTPResponse {
    let (imported, present) = try await library.restoreSamples()
    let payload = APIPayload.SamplesRestored(
      imported: imported.map { APIPayload.NoteSummary($0, progress: nil) }, alreadyPresent: present)
    return .json(APIPayload.encode(payload))
  }

  // MARK: - Recording

  private func startRecording() async throws -> HTTPResponse {
    let session = try await library.startRecording(sourceName: "browser microphone")
    let payload = APIPayload.RecordingStarted(
      recordingID: session.id, note: APIPayload.NoteSummary(await session.note, progress: nil), sampleRate: 16000,
      channels: 1, encoding: "s16le")
    return .json(APIPayload.encode(payload), status: 201)
  }

  private func appendAudio(_ id: String, _ request: HTTPRequest) async throws -> HTTPResponse {
    guard request.head.contentType == "application/octet-stream" else {
      throw Failure(415, "send the audio as application/octet-stream (16-bit little-endian mono PCM at 16 kHz)")
    }
    let session = try await library.recording(id)
    try await session.appendPCM16(request.body)
    return .json(APIPayload.encode(["duration": await session.duration]))
  }

  private func stopRecording(_ id: String) async throws -> HTTPResponse {
    let note = try await library.finishRecording(id)
    return .json(APIPayload.encode(APIPayload.Note(note, progress: nil)))
  }

  // MARK: - Helpers

  /// Decodes a JSON body, or fails with a 400 that shows what to send.
  static func decode<T: Decodable>(_ request: HTTPRequest, example: String) throws -> T {
    if let type = request.head.contentType, type != "application/json" {
      throw Failure(415, "send JSON (Content-Type: application/json), such as \(example)")
    }
    do {
      return try JSONDecoder().decode(T.self, from: request.body)
    } catch {
      throw Failure(400, "the body is not the JSON this route takes; send \(example)")
    }
  }

  /// Whether an upload's media type can be audio.
  static func isAudioContentType(_ type: String) -> Bool {
    type.hasPrefix("audio/") || type.hasPrefix("video/") || type == "application/octet-stream"
      || type == "application/ogg"
  }

  static func scope(named name: String) -> SearchScope? {
    name == "action-items" ? .actionItems : name == "actionItems" ? nil : SearchScope(rawValue: name)
  }

  static func scopeName(_ scope: SearchScope) -> String { scope == .actionItems ? "action-items" : scope.rawValue }

  static func byteRange(_ header: String, size: Int64) -> (Int64, Int64)? {
    guard header.hasPrefix("bytes="), size > 0 else { return nil }
    let spec = header.dropFirst(6).split(separator: ",").first.map(String.init) ?? ""
    let parts = spec.split(separator: "-", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard parts.count == 2 else { return nil }
    if parts[0].isEmpty {
      guard let suffix = Int64(parts[1]), suffix > 0 else { return nil }
      return (max(0, size - suffix), size - 1)
    }
    guard let start = Int64(parts[0]), start < size else { return nil }
    let end = parts[1].isEmpty ? size - 1 : min(Int64(parts[1]) ?? -1, size - 1)
    return end >= start ? (start, end) : nil
  }

  static func audioContentType(of fileExtension: String) -> String {
    switch fileExtension.lowercased() {
    case "wav": "audio/wav"
    case "mp3": "audio/mpeg"
    case "flac": "audio/flac"
    case "ogg", "oga", "opus": "audio/ogg"
    case "m4a", "mp4", "aac": "audio/mp4"
    case "webm": "audio/webm"
    default: "application/octet-stream"
    }
  }

  /// An upload's name with anything that could be a path taken out.
  static func cleanFileName(_ name: String) -> String {
    let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
    let cleaned = String(last.filter { !$0.isNewline && $0 != "\0" }.prefix(200))
    return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "recording" : cleaned
  }

  static func state(of name: String, in models: [ModelStatus]) -> String {
    models.first { $0.name == name }?.state.rawValue ?? "supported"
  }

  static func reason(_ error: any Error) -> String {
    (FailureText.describe(error)).replacingOccurrences(of: "\n", with: " ")
  }

  /// The status and a path-free message for an error from the app core.
  static func describe(_ error: any Error) -> (Int, String) {
    switch error {
    case let error as NoteStoreError:
      switch error {
      case .noteNotFound(let id): return (404, "no note has the id \(id.prefix(36))")
      case .actionItemNotFound(let id): return (404, "no action item has the id \(id.prefix(36))")
      case .ambiguous(let id, _), .ambiguousActionItem(let id, _):
        return (400, "several match '\(id.prefix(36))'; give more of the id")
      case .emptyQuery: return (400, "type some words to search for")
      case .queryTooLong: return (400, reason(error))
      case _ where error.isOutOfSpace:
        return (507, "the disk is full; free some space and try again (nothing saved was lost)")
      case _ where error.isReadOnly: return (503, "the library is read-only: notes can be read but not changed")
      default:
        FileHandle.standardError.write(Data("voicenotes serve: \(reason(error))\n".utf8))
        return (500, "the notes library could not be read or written; check the server's log and free space")
      }
    case let error as LibraryError:
      switch error {
      case .recordingNotFound, .unknownModel: return (404, reason(error))
      case .recordingFinished, .nothingToRetry: return (409, reason(error))
      case .invalidAudio, .invalidTitle: return (400, reason(error))
      case .noTranscript: return (409, reason(error))
      case .samplesMissing: return (500, "the sample recordings are not installed with this server")
      case .speakerNotFound, .voiceNotFound: return (404, reason(error))
      case .voiceExists: return (409, reason(error))
      case .invalidSpeakerName, .invalidQuestion, .semanticScope: return (400, reason(error))
      case .semanticIndexUnavailable, .semanticIndexEmpty: return (409, reason(error))
      }
    case let error as PipelineError:
      switch error {
      case .stillRecording, .deletedWhileRecording: return (409, reason(error))
      case .copyFailed(_, let detail) where detail == String(cString: strerror(ENOSPC)):
        return (507, "the disk is full; free some space and upload again")
      default: return (500, "the recording could not be stored; check free space and the library's permissions")
      }
    default:
      FileHandle.standardError.write(Data("voicenotes serve: \(reason(error))\n".utf8))
      return (500, "the server could not do that; its log (standard error) says why")
    }
  }
}
