import Foundation
import SpeechRecognition
import TestSupport
import Testing
import VoiceNotes

@testable import WebServer

/// The speakers routes against a real server: a note's segments carry who speaks, a speaker is
/// named (and unnamed) with PUT, the named voices are listed, renamed, merged and forgotten, and
/// bad input is a one-line 4xx that changes nothing.
@Suite("Web API: speakers", .serialized)
struct WebSpeakersTests {
  /// A note of two speakers saved through the store (the stand-in of a diarized note).
  func addConversation(_ server: TestServer) async throws -> VoiceNote {
    var note = try await server.addAnalysedNote(title: "Room booking", people: [], tasks: [], text: "Yes, both.")
    note.transcript?.segments[0].speaker = 0
    note.transcript?.segments[1].speaker = 1
    note.speakers = [
      NoteSpeaker(index: 0, embedding: SpeakerEmbedding(values: [1, 0, 0]), duration: 3),
      NoteSpeaker(index: 1, embedding: SpeakerEmbedding(values: [0, 1, 0]), duration: 7.5),
    ]
    try await server.library.store.save(note)
    return note
  }

  func speakerLabels(_ json: [String: Any]) -> [String] {
    ((json["transcript"] as? [String: Any])?["segments"] as? [[String: Any]] ?? []).map {
      $0["speaker"] as? String ?? "-"
    }
  }

  @Test("name a speaker, see it on the segments, list, rename, merge and forget the voices")
  func nameRenameMergeForget() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let note = try await addConversation(server)
    let shown = try server.client.send("GET", "/api/notes/\(note.id)")
    #expect(speakerLabels(shown.json) == ["Speaker 1", "Speaker 2"])
    #expect((shown.json["speakers"] as? [[String: Any]])?.count == 2)

    let named = try server.client.send("PUT", "/api/notes/\(note.id)/speakers/2", json: ["name": "Priya"])
    #expect(named.status == 200, "\(named.text)")
    #expect(speakerLabels(named.json) == ["Speaker 1", "Priya"])
    _ = try server.client.send("PUT", "/api/notes/\(note.id)/speakers/1", json: ["name": "Omar"])

    let listed = try server.client.send("GET", "/api/speakers")
    let voices = try #require(listed.json["speakers"] as? [[String: Any]])
    #expect(voices.map { $0["name"] as? String } == ["Omar", "Priya"])
    #expect(voices.map { $0["notes"] as? Int } == [1, 1])
    let omar = try #require(voices[0]["id"] as? String)
    let priya = try #require(voices[1]["id"] as? String)

    let renamed = try server.client.send("PATCH", "/api/speakers/\(priya)", json: ["name": "Priya Okonkwo"])
    #expect(renamed.json["name"] as? String == "Priya Okonkwo", "\(renamed.text)")
    #expect(speakerLabels(try server.client.send("GET", "/api/notes/\(note.id)").json) == ["Omar", "Priya Okonkwo"])

    let merged = try server.client.send("POST", "/api/speakers/\(omar)/merge", json: ["into": priya])
    #expect(merged.status == 200, "\(merged.text)")
    #expect(
      speakerLabels(try server.client.send("GET", "/api/notes/\(note.id)").json) == ["Speaker 1", "Priya Okonkwo"])

    let unnamed = try server.client.send("PUT", "/api/notes/\(note.id)/speakers/2", json: ["name": NSNull()])
    #expect(speakerLabels(unnamed.json) == ["Speaker 1", "Speaker 2"])
    let forgotten = try server.client.send("DELETE", "/api/speakers/\(priya)")
    #expect(forgotten.status == 200, "\(forgotten.text)")
    #expect((try server.client.send("GET", "/api/speakers").json["speakers"] as? [Any])?.isEmpty == true)
  }

  @Test("bad speaker input is a one-line 4xx that changes nothing")
  func badInput() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let note = try await addConversation(server)
    let api = WebAPITests()
    api.expectOneLineError(
      try server.client.send("PUT", "/api/notes/\(note.id)/speakers/3", json: ["name": "Ann"]), 404)
    api.expectOneLineError(
      try server.client.send("PUT", "/api/notes/\(note.id)/speakers/zero", json: ["name": "Ann"]), 404)
    api.expectOneLineError(try server.client.send("PUT", "/api/notes/\(note.id)/speakers/1", json: ["name": " "]), 400)
    api.expectOneLineError(
      try server.client.send("PUT", "/api/notes/\(note.id)/speakers/1", json: ["name": "Speaker 2"]), 400)
    api.expectOneLineError(try server.client.send("PUT", "/api/notes/\(note.id)/speakers/1", json: ["who": 1]), 400)
    api.expectOneLineError(try server.client.send("POST", "/api/notes/\(note.id)/speakers/1", json: ["name": "A"]), 405)
    api.expectOneLineError(
      try server.client.send("PATCH", "/api/speakers/0a1b2c3d-0000-4000-8000-000000000000", json: ["name": "A"]), 404)
    _ = try server.client.send("PUT", "/api/notes/\(note.id)/speakers/1", json: ["name": "Omar"])
    _ = try server.client.send("PUT", "/api/notes/\(note.id)/speakers/2", json: ["name": "Priya"])
    let voices = try server.client.send("GET", "/api/speakers").json["speakers"] as? [[String: Any]] ?? []
    let priya = try #require(voices.first { $0["name"] as? String == "Priya" }?["id"] as? String)
    api.expectOneLineError(try server.client.send("PATCH", "/api/speakers/\(priya)", json: ["name": "omar"]), 409)
    api.expectOneLineError(try server.client.send("POST", "/api/speakers/\(priya)/merge", json: ["into": "zz"]), 404)
    #expect(speakerLabels(try server.client.send("GET", "/api/notes/\(note.id)").json) == ["Omar", "Priya"])
  }
}
