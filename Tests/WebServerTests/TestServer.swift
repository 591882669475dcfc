import Foundation
import LanguageModels
import SpeechRecognition
import TestSupport
import VoiceNotes

@testable import WebServer

/// A real server on an ephemeral loopback port over a fresh library, for one test.
final class TestServer: @unchecked Sendable {
  let folder: URL
  let library: Library
  let app: WebApp
  let server: HTTPServer
  let client: HTTPTestClient

  /// Starts a server; `worker` also starts the background worker (real transcription with
  /// base, analysis with the tiny language model).
  static func start(
    token: String? = nil, apiKey: String? = nil, maximumUpload: Int64 = 64 << 20, worker: Bool = false,
    host: String = "127.0.0.1",
    tls: Bool = false, idleTimeout: Int = 30, connectionLimit: Int = 128
  ) async throws -> TestServer {
    let folder = Fixtures.temporaryFolder("web")
    let certificate =
      tls ? try TLSCertificate.selfSigned(in: folder.appendingPathComponent("tls"), hosts: ["127.0.0.1"]) : nil
    let configuration = LibraryConfiguration(
      folder: folder.appendingPathComponent("library"), speechModel: .default, liveModel: .tinyEnglish,
      languageModel: .tiny, samplesFolder: Fixtures.root.appendingPathComponent("Samples"))
    let library = try await Library.open(configuration)
    let app = WebApp(
      library: library, security: WebSecurity(boundHost: host, token: token, apiKey: apiKey),
      settings: WebApp.Settings(maximumUpload: maximumUpload, version: "test"))
    let server = HTTPServer(handler: app, idleTimeout: idleTimeout, connectionLimit: connectionLimit)
    try server.start(host: "127.0.0.1", port: 0, tls: certificate.map { ($0.certificate, $0.key) })
    await app.start()
    if worker { await library.startWorker() }
    return TestServer(folder: folder, library: library, app: app, server: server)
  }

  private init(folder: URL, library: Library, app: WebApp, server: HTTPServer) {
    self.folder = folder
    self.library = library
    self.app = app
    self.server = server
    client = HTTPTestClient(port: server.port)
  }

  /// Stops everything and removes the library.
  func stop() async {
    await library.finishAllRecordings()
    server.stop()
    await library.stopWorker()
    try? FileManager.default.removeItem(at: folder)
  }

  /// The files in the library's audio folder.
  var audioFiles: [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: library.store.audioFolder.path))?.filter {
      !$0.hasPrefix(".")
    }.sorted() ?? []
  }

  /// Files left in the upload folder (there should be none after a request).
  var leftoverUploads: [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: app.uploadFolder.path)) ?? []
  }

  /// A saved, analysed note with action items, made through the store (no engines involved).
  func addAnalysedNote(title: String, people: [String], tasks: [(String, [String])], text: String) async throws
    -> VoiceNote
  {
    var note = VoiceNote(duration: 12, audioFileName: "none.wav", originalFileName: "memo.wav")
    note.title = title
    note.people = people
    note.summary = "A note about \(title.lowercased())."
    note.tags = ["work"]
    note.transcript = Transcript(
      language: "en", duration: 12,
      segments: [
        .init(text: "Opening words.", start: 0, end: 3),
        .init(text: text, start: 3.5, end: 11),
      ])
    note.actionItems = tasks.map { NoteActionItem(task: $0.0, people: $0.1) }
    note.processing = ProcessingState(stage: .done)
    try await library.store.save(note)
    return note
  }
}
