import AudioIO
import Foundation
import TestSupport
import Testing
import VoiceNotes

/// A folder imported through servers that no one here wrote (whisper.cpp's whisper-server and two
/// of llama.cpp's llama-server), one of them killed while it answers: every note done once.
@Suite("Importing through servers", .serialized)
struct ServerImportTests {
  /// How many requests `server`'s log shows started and finished.
  static func requests(of server: ReferenceServer) -> (started: Int, finished: Int) {
    let log = (try? String(contentsOf: server.logFile, encoding: .utf8)) ?? ""
    let lines = log.split(separator: "\n")
    return (lines.count { $0.contains("launch_slot_") }, lines.count { $0.contains("slot      release") })
  }

  @Test("a folder through one whisper-server and two llama-servers, one killed mid-request: every note done once")
  func folderThroughServers() async throws {
    let folder = Fixtures.temporaryFolder("server-import")
    defer { try? FileManager.default.removeItem(at: folder) }
    let recordings = folder.appendingPathComponent("recordings/inner", isDirectory: true)
    try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
    let clips = [Fixtures.jfk] + Fixtures.librivox.prefix(3).map(\.audio)
    for (index, clip) in clips.enumerated() {
      try FileManager.default.copyItem(
        at: clip, to: recordings.appendingPathComponent(String(format: "memo-%02d.wav", index)))
    }
    let library = folder.appendingPathComponent("library")

    let whisper = try await ReferenceServer.start(
      .whisper, model: Fixtures.models.appendingPathComponent("ggml-tiny.en.bin"))
    defer { whisper.stop() }
    let model = Fixtures.models.appendingPathComponent("qwen-0.5b.gguf")
    let first = try await ReferenceServer.start(.llama, model: model, arguments: ["-c", "4096", "-t", "1"])
    defer { first.stop() }
    let second = try await ReferenceServer.start(.llama, model: model, arguments: ["-c", "4096", "-t", "1"])
    defer { second.stop() }

    for (kind, server) in [("transcription", whisper), ("language-model", first), ("language-model", second)] {
      let added = try Program.run(
        [Fixtures.program.path, "config", "add-server", kind, server.baseURL.absoluteString, "--library", library.path])
      #expect(added.status == 0, "\(added.standardError)")
    }

    // The import runs in the background; the second llama-server is killed while it answers.
    let importing = Task.detached {
      try Program.run([
        Fixtures.program.path, "import", folder.appendingPathComponent("recordings").path, "--library", library.path,
      ])
    }
    let deadline = ContinuousClock.now + .seconds(300)
    while ContinuousClock.now < deadline {
      let (started, finished) = Self.requests(of: second)
      if started > finished { break }
      try await Task.sleep(for: .milliseconds(100))
    }
    #expect(Self.requests(of: second).started > Self.requests(of: second).finished, "the second server got a request")
    second.kill()
    let result = try await importing.value

    #expect(result.status == 0, "\(result.standardError)")
    let notes = try await NoteStore(library: library).allNotes()
    #expect(notes.count == clips.count, "one note per recording: \(notes.map(\.originalFileName))")
    #expect(Set(notes.map(\.originalFileName)).count == clips.count)
    for note in notes {
      #expect(note.processing.stage == .done, "\(note.originalFileName): \(note.processing)")
      #expect(note.processing.lastError == nil, "\(note.originalFileName): \(note.processing.lastError ?? "")")
      let text = note.transcript?.text ?? ""
      #expect(!text.isEmpty, "\(note.originalFileName) has a transcript")
      #expect(note.title != VoiceNote.defaultTitle(for: note.createdAt), "\(note.originalFileName) was analysed")
      let reported = result.standardError.components(separatedBy: "] \(note.id.prefix(8)) ").count - 1
      #expect(reported == 1, "note \(note.id.prefix(8)) reported done \(reported) times:\n\(result.standardError)")
    }
    let jfk = try #require(notes.first { $0.originalFileName == "memo-00.wav" })
    #expect(
      jfk.transcript?.text.lowercased().contains("ask not what your country") == true, "\(jfk.transcript?.text ?? "")")
    #expect(Self.requests(of: first).finished >= 1, "the first server analysed notes")
  }
}
