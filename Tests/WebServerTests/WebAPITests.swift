import AudioIO
import Foundation
import TestSupport
import Testing
import VoiceNotes

@testable import WebServer

/// The web API against a real server on an ephemeral port: every route, bad input (a 4xx with a
/// one-line JSON error that changes nothing), and the Host, Origin and token rules.
@Suite("Web API", .serialized)
struct WebAPITests {
  /// The one-line error shape every failure has.
  func expectOneLineError(
    _ response: HTTPTestClient.Response, _ status: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(response.status == status, "\(response.status) \(response.text)", sourceLocation: sourceLocation)
    #expect(response.header("content-type")?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
    let message = response.error ?? ""
    #expect(!message.isEmpty && !message.contains("\n"), "\(response.text)", sourceLocation: sourceLocation)
    #expect(
      !message.contains("/tmp/") && !message.contains(".swift"), "no paths: \(message)", sourceLocation: sourceLocation)
  }

  @Test("the page and its files are served with caching and a content-security policy; nothing else is")
  func page() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let page = try server.client.send("GET", "/")
    #expect(page.status == 200)
    #expect(page.header("content-type") == "text/html; charset=utf-8")
    #expect(page.header("content-security-policy")?.contains("default-src 'self'") == true)
    #expect(page.text.contains("/app/js/app.js"))
    let script = try server.client.send("GET", "/app/js/app.js")
    #expect(script.status == 200)
    #expect(script.header("content-type") == "text/javascript; charset=utf-8")
    let etag = try #require(script.header("etag"))
    #expect(try server.client.send("GET", "/app/js/app.js", headers: ["If-None-Match": etag]).status == 304)
    expectOneLineError(try server.client.send("GET", "/app/../Package.swift"), 404)
    expectOneLineError(try server.client.send("GET", "/etc/passwd"), 404)
    expectOneLineError(try server.client.send("POST", "/", body: Data("x".utf8)), 405)
  }

  @Test("status, an empty list, unknown routes and wrong methods")
  func statusAndRouting() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let status = try server.client.send("GET", "/api/status")
    #expect(status.status == 200)
    #expect(status.json["noteCount"] as? Int == 0)
    #expect((status.json["languageModel"] as? [String: Any])?["name"] as? String == "smollm-135m")
    let notes = try server.client.send("GET", "/api/notes")
    #expect(notes.json["total"] as? Int == 0)
    #expect(notes.json.keys.contains("next"), "null fields are written")
    expectOneLineError(try server.client.send("GET", "/api/nothing"), 404)
    let wrong = try server.client.send("DELETE", "/api/status")
    expectOneLineError(wrong, 405)
    #expect(wrong.header("allow") == "GET")
    expectOneLineError(try server.client.send("GET", "/api/notes?limit=0"), 400)
    expectOneLineError(try server.client.send("GET", "/api/notes?before=garbage"), 400)
    expectOneLineError(try server.client.send("GET", "/api/notes/not-an-id!"), 404)
    expectOneLineError(try server.client.send("GET", "/api/notes/..%2F..%2Fetc"), 404)
    expectOneLineError(try server.client.send("GET", "/api/notes/0123abcd"), 404)
  }

  @Test("import a recording: saved, listed, playable with ranges, exported, renamed and deleted")
  func importLifecycle() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let audio = try Data(contentsOf: Fixtures.jfk)
    let created = try server.client.send(
      "POST", "/api/imports?name=jfk%20speech.wav", headers: ["Content-Type": "audio/wav"], body: audio)
    #expect(created.status == 201, "\(created.text)")
    let id = try #require(created.json["id"] as? String)
    #expect(created.json["originalFileName"] as? String == "jfk speech.wav")
    #expect(created.json["state"] as? String == "saved")
    #expect(server.leftoverUploads.isEmpty)
    #expect(server.audioFiles == ["\(id).wav"])

    let list = try server.client.send("GET", "/api/notes")
    #expect((list.json["notes"] as? [[String: Any]])?.first?["id"] as? String == id)

    let whole = try server.client.send("GET", "/api/notes/\(id)/audio")
    #expect(whole.status == 200 && whole.body == audio)
    #expect(whole.header("accept-ranges") == "bytes")
    let part = try server.client.send("GET", "/api/notes/\(id.prefix(8))/audio", headers: ["Range": "bytes=100-199"])
    #expect(part.status == 206)
    #expect(part.body == audio[100..<200])
    #expect(part.header("content-range") == "bytes 100-199/\(audio.count)")
    expectOneLineError(
      try server.client.send("GET", "/api/notes/\(id)/audio", headers: ["Range": "bytes=\(audio.count + 5)-"]), 416)

    let markdown = try server.client.send("GET", "/api/notes/\(id)/export?format=md")
    #expect(markdown.status == 200 && markdown.text.hasPrefix("# Note, "))
    #expect(markdown.header("content-disposition")?.hasPrefix("attachment; filename=") == true)
    let json = try server.client.send("GET", "/api/notes/\(id)/export?format=json")
    #expect(json.json["id"] as? String == id)
    expectOneLineError(try server.client.send("GET", "/api/notes/\(id)/export?format=txt"), 409)
    expectOneLineError(try server.client.send("GET", "/api/notes/\(id)/export?format=doc"), 400)

    let renamed = try server.client.send("PATCH", "/api/notes/\(id)", json: ["title": "  Kennedy's address "])
    #expect(renamed.json["title"] as? String == "Kennedy's address")
    #expect(renamed.json["hasCustomTitle"] as? Bool == true)
    expectOneLineError(
      try server.client.send(
        "PATCH", "/api/notes/\(id)", headers: ["Content-Type": "application/json"], body: Data("{nope".utf8)),
      400)
    expectOneLineError(try server.client.send("PATCH", "/api/notes/\(id)", json: ["title": "   "]), 400)
    expectOneLineError(try server.client.send("PATCH", "/api/notes/\(id)", json: ["name": "x"]), 400)
    #expect(try server.client.send("GET", "/api/notes/\(id)").json["title"] as? String == "Kennedy's address")
    #expect(try server.client.send("POST", "/api/notes/\(id)/retry").status == 200, "a saved note can be retried")

    let deleted = try server.client.send("DELETE", "/api/notes/\(id)")
    #expect(deleted.json["deleted"] as? String == id)
    expectOneLineError(try server.client.send("GET", "/api/notes/\(id)"), 404)
    #expect(server.audioFiles.isEmpty)
  }

  @Test("bad uploads get 4xx and one line, and leave nothing behind")
  func badUploads() async throws {
    let server = try await TestServer.start(maximumUpload: 1 << 20)
    defer { Task { await server.stop() } }
    let text = try server.client.send(
      "POST", "/api/imports?name=notes.txt", headers: ["Content-Type": "text/plain"], body: Data("hello".utf8))
    expectOneLineError(text, 415)
    #expect(text.error?.contains("notes.txt") == true)
    var random = Data(count: 50_000)
    for index in random.indices { random[index] = UInt8.random(in: 0...255) }
    let noise = try server.client.send(
      "POST", "/api/imports?name=noise.wav", headers: ["Content-Type": "audio/wav"], body: random)
    expectOneLineError(noise, 422)
    #expect(noise.error?.hasPrefix("noise.wav") == true, "\(noise.error ?? "")")
    let empty = try server.client.send("POST", "/api/imports?name=empty.mp3", headers: ["Content-Type": "audio/mpeg"])
    expectOneLineError(empty, 422)
    let large = try server.client.send(
      "POST", "/api/imports?name=big.wav", headers: ["Content-Type": "audio/wav"], body: Data(count: 2 << 20))
    expectOneLineError(large, 413)
    let json = try server.client.send("POST", "/api/notes/abcd1234/retry", json: ["x": 1])
    expectOneLineError(json, 404)
    #expect(try server.client.send("GET", "/api/notes").json["total"] as? Int == 0)
    #expect(server.audioFiles.isEmpty)
    #expect(server.leftoverUploads.isEmpty, "\(server.leftoverUploads)")
  }

  @Test("search with scopes and snippets; action items ticked and filtered by person")
  func searchAndTasks() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let note = try await server.addAnalysedNote(
      title: "Budget review with Marcus", people: ["Marcus", "Priya"],
      tasks: [("Send Marcus the budget draft", ["Marcus"]), ("Book the offsite venue", ["Priya"])],
      text: "We should ask Marcus about the quarterly figures.")
    let people = try server.client.send("GET", "/api/search?q=mar&scope=people")
    let hit = try #require((people.json["results"] as? [[String: Any]])?.first)
    #expect((hit["note"] as? [String: Any])?["id"] as? String == note.id)
    #expect(hit["field"] as? String == "people")
    let runs = hit["snippet"] as? [[String: Any]] ?? []
    #expect(runs.contains { $0["match"] as? Bool == true && $0["text"] as? String == "Marcus" }, "\(runs)")
    let transcript = try server.client.send("GET", "/api/search?q=quarterly&scope=transcript")
    let spoken = try #require((transcript.json["results"] as? [[String: Any]])?.first)
    #expect(spoken["segmentStart"] as? Double == 3.5)
    expectOneLineError(try server.client.send("POST", "/api/notes/\(note.id)/retry"), 409)
    let tasksScope = try server.client.send("GET", "/api/search?q=venue&scope=action-items")
    #expect((tasksScope.json["results"] as? [[String: Any]])?.count == 1)
    expectOneLineError(try server.client.send("GET", "/api/search?q=x&scope=everything"), 400)
    #expect((try server.client.send("GET", "/api/search?q=zebra").json["results"] as? [Any])?.isEmpty == true)

    let open = try server.client.send("GET", "/api/tasks")
    let group = try #require((open.json["groups"] as? [[String: Any]])?.first)
    let items = group["items"] as? [[String: Any]] ?? []
    #expect(items.count == 2)
    #expect(open.json["people"] as? [String] == ["Marcus", "Priya"])
    let itemID = try #require(items.first { ($0["task"] as? String)?.contains("Marcus") == true }?["id"] as? String)
    let ticked = try server.client.send("PATCH", "/api/tasks/\(itemID)", json: ["done": true])
    #expect((ticked.json["item"] as? [String: Any])?["done"] as? Bool == true)
    let stillOpen = try server.client.send("GET", "/api/tasks?completed=false")
    #expect(((stillOpen.json["groups"] as? [[String: Any]])?.first?["items"] as? [Any])?.count == 1)
    let all = try server.client.send("GET", "/api/tasks?completed=true&person=pri")
    #expect(
      ((all.json["groups"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])?.map { $0["task"] as? String }
        == ["Book the offsite venue"])
    expectOneLineError(try server.client.send("PATCH", "/api/tasks/\(itemID)", json: ["done": "yes"]), 400)
    expectOneLineError(try server.client.send("PATCH", "/api/tasks/ffffffff", json: ["done": true]), 404)
    expectOneLineError(try server.client.send("GET", "/api/tasks?completed=maybe"), 400)
  }

  @Test("models are listed; an unknown model cannot be installed")
  func models() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let models = try server.client.send("GET", "/api/models")
    let speech = models.json["speech"] as? [[String: Any]] ?? []
    #expect(speech.contains { $0["name"] as? String == "base" && $0["status"] as? String == "installed" })
    #expect((models.json["language"] as? [[String: Any]])?.count == 3)
    expectOneLineError(try server.client.send("POST", "/api/models/gpt-9/install"), 404)
  }

  @Test("recording over HTTP: PCM chunks are written to the library as they come; stopping saves the note")
  func recording() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let started = try server.client.send("POST", "/api/recordings")
    #expect(started.status == 201, "\(started.text)")
    let id = try #require(started.json["recordingID"] as? String)
    #expect(started.json["sampleRate"] as? Int == 16000)
    #expect((started.json["note"] as? [String: Any])?["state"] as? String == "recording")
    // jfk.wav is 16 kHz mono 16-bit: its samples are the wire format.
    let pcm = try Data(contentsOf: Fixtures.jfk).dropFirst(44)
    let chunk = 8000  // a quarter of a second
    var offset = pcm.startIndex
    var duration = 0.0
    while offset < pcm.endIndex {
      let end = min(offset + chunk, pcm.endIndex)
      let sent = try server.client.send(
        "POST", "/api/recordings/\(id)/audio", headers: ["Content-Type": "application/octet-stream"],
        body: Data(pcm[offset..<end]))
      #expect(sent.status == 200, "\(sent.text)")
      duration = sent.json["duration"] as? Double ?? 0
      offset = end
    }
    #expect(abs(duration - Double(pcm.count) / 32000) < 0.01)
    // The file in the library is a playable WAV of everything sent so far, before the stop.
    let file = server.library.store.audioFolder.appendingPathComponent("\(id).wav")
    #expect(try AudioFile(forReading: file).duration > duration - 0.1)
    expectOneLineError(
      try server.client.send(
        "POST", "/api/recordings/\(id)/audio", headers: ["Content-Type": "application/octet-stream"],
        body: Data([1, 2, 3])), 400)
    expectOneLineError(
      try server.client.send(
        "POST", "/api/recordings/\(id)/audio", headers: ["Content-Type": "text/plain"], body: Data([1, 2])),
      415)
    let stopped = try server.client.send("POST", "/api/recordings/\(id)/stop")
    #expect(stopped.json["stage"] as? String == "transcribing", "\(stopped.text)")
    #expect(abs((stopped.json["duration"] as? Double ?? 0) - duration) < 0.01)
    expectOneLineError(try server.client.send("POST", "/api/recordings/\(id)/stop"), 404)
    expectOneLineError(
      try server.client.send(
        "POST", "/api/recordings/\(id)/audio", headers: ["Content-Type": "application/octet-stream"],
        body: Data([0, 0])),
      404)
  }

  @Test("Host and Origin rules: foreign hosts and cross-site writes are refused, same-origin writes pass")
  func hostAndOrigin() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    expectOneLineError(
      try server.client.send("GET", "/api/status", hostHeader: "evil.example:\(server.server.port)"), 403)
    expectOneLineError(try server.client.send("GET", "/", hostHeader: "192.168.1.5"), 403)
    #expect(try server.client.send("GET", "/api/status", hostHeader: "localhost:\(server.server.port)").status == 200)
    let note = try await server.addAnalysedNote(title: "Origin test", people: [], tasks: [], text: "words")
    let foreign = try server.client.send(
      "PATCH", "/api/notes/\(note.id)", json: ["title": "hacked"], headers: ["Origin": "https://evil.example"])
    expectOneLineError(foreign, 403)
    let crossSite = try server.client.send(
      "DELETE", "/api/notes/\(note.id)", headers: ["Sec-Fetch-Site": "cross-site"])
    expectOneLineError(crossSite, 403)
    #expect(try server.client.send("GET", "/api/notes/\(note.id)").json["title"] as? String == "Origin test")
    let same = try server.client.send(
      "PATCH", "/api/notes/\(note.id)", json: ["title": "Renamed"], headers: ["Origin": "http://\(server.client.host)"])
    #expect(same.status == 200)
  }

  @Test("beyond loopback a token is required: 401 without it, a login link sets the cookie, bearer works")
  func token() async throws {
    let server = try await TestServer.start(token: "s3cret-token-123", host: "0.0.0.0")
    defer { Task { await server.stop() } }
    expectOneLineError(try server.client.send("GET", "/api/status"), 401)
    expectOneLineError(try server.client.send("GET", "/"), 401)
    expectOneLineError(try server.client.send("GET", "/login?token=wrong"), 401)
    let login = try server.client.send("GET", "/login?token=s3cret-token-123")
    #expect(login.status == 303)
    let cookie = try #require(login.header("set-cookie"))
    #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
    let pair = String(cookie.split(separator: ";")[0])
    #expect(try server.client.send("GET", "/api/status", headers: ["Cookie": pair]).status == 200)
    #expect(
      try server.client.send("GET", "/api/status", headers: ["Authorization": "Bearer s3cret-token-123"]).status == 200)
    // Bound to every interface, an IP address is a valid Host; a name is not.
    #expect(
      try server.client.send("GET", "/api/status", headers: ["Cookie": pair], hostHeader: "192.168.1.5:80").status
        == 200)
    expectOneLineError(
      try server.client.send("GET", "/api/status", headers: ["Cookie": pair], hostHeader: "rebind.example"), 403)
  }

  @Test("events: changes made here and by another process reach a connected page")
  func events() async throws {
    let server = try await TestServer.start(worker: true)
    defer { Task { await server.stop() } }
    let note = try await server.addAnalysedNote(title: "Before", people: [], tasks: [], text: "words")
    let renamed = try server.client.readEvents(
      timeout: 10, until: { $0.contains("\"title\":\"After\"") },
      afterConnect: {
        _ = try server.client.send("PATCH", "/api/notes/\(note.id)", json: ["title": "After"])
      })
    #expect(renamed.contains("event: note"), "\(renamed)")
    #expect(renamed.contains("\"title\":\"After\""))
    // Another process: a second store on the same database file, as the command line would open it.
    let external = try await server.client.readEvents(
      timeout: 10, until: { $0.contains("event: library") },
      afterConnect: {
        let other = try NoteStore(library: server.library.configuration.folder)
        var changed = note
        changed.title = "Changed elsewhere"
        let semaphore = DispatchSemaphore(value: 0)
        Task {
          try? await other.save(changed)
          semaphore.signal()
        }
        semaphore.wait()
      })
    #expect(external.contains("event: library"), "\(external)")
  }

  @Test("the worker transcribes an imported note by itself, and the page hears about each stage")
  func workerProcessesImports() async throws {
    let server = try await TestServer.start(worker: true)
    defer { Task { await server.stop() } }
    var id = ""
    let stream = try server.client.readEvents(
      timeout: 240, until: { $0.contains("\"state\":\"done\"") },
      afterConnect: {
        let created = try server.client.send(
          "POST", "/api/imports?name=jfk.wav", headers: ["Content-Type": "audio/wav"],
          body: try Data(contentsOf: Fixtures.jfk))
        id = created.json["id"] as? String ?? ""
      })
    #expect(stream.contains("\"state\":\"transcribing\""), "progress while transcribing")
    #expect(stream.contains("\"state\":\"done\""), "\(stream.suffix(500))")
    let note = try server.client.send("GET", "/api/notes/\(id)")
    let segments = (note.json["transcript"] as? [String: Any])?["segments"] as? [[String: Any]] ?? []
    let text = segments.compactMap { $0["text"] as? String }.joined(separator: " ").lowercased()
    #expect(text.contains("ask not what your country can do for you"), "\(text)")
    let txt = try server.client.send("GET", "/api/notes/\(id)/export?format=srt")
    #expect(txt.status == 200 && txt.text.contains("-->"))
  }
}
