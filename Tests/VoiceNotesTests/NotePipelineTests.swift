import Foundation
import LanguageModels
import ModelSupport
import TestSupport
import Testing

@testable import VoiceNotes

/// The app end to end with the real engines: import, transcribe, analyse, resume, refuse bad files.
@Suite("Voice notes end to end", .serialized)
struct NotePipelineTests {
  func voicenotes(_ arguments: [String], library: URL) throws -> Program {
    try Program.run([Fixtures.program.path] + arguments + ["--library", library.path])
  }

  func noteJSON(_ id: String, library: URL) throws -> [String: Any] {
    let shown = try voicenotes(["show", id, "--json"], library: library)
    return try #require(try JSONSerialization.jsonObject(with: Data(shown.standardOutput.utf8)) as? [String: Any])
  }

  @Test("a spoken note that names a person and a task comes out with both")
  func personAndTask() throws {
    let folder = Fixtures.temporaryFolder("note-e2e")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let audio = folder.appendingPathComponent("memo.wav")
    try Fixtures.speak(
      "Quick reminder for tomorrow. I need to call Priya about the quarterly budget report before noon.", to: audio)
    let before = try Data(contentsOf: audio)

    let imported = try voicenotes(["import", audio.path], library: library)
    #expect(imported.status == 0, "\(imported.standardError)")
    let id = imported.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    // Progress that means something: tokens and seconds while analysing, each step's time at the end.
    let progress = imported.standardError
    #expect(progress.contains("\(id) analysing: "), "\(progress)")
    #expect(
      progress.range(of: #"analysing[^\n]*: [1-9][0-9]* tokens, [0-9.]+ s"#, options: .regularExpression) != nil,
      "\(progress)")
    #expect(
      progress.range(
        of:
          #"\(transcribed in [0-9.]+ s, (speakers told apart in [0-9.]+ s, )?analysed in [0-9.]+ s(, indexed for search by meaning in [0-9.]+ s)?\)"#,
        options: .regularExpression) != nil,
      "\(progress)")
    let note = try noteJSON(id, library: library)
    let people = note["people"] as? [String] ?? []
    #expect(people.contains { $0.contains("Priya") }, "people: \(people)")
    let tasks = (note["actionItems"] as? [[String: Any]] ?? []).compactMap { $0["task"] as? String }
    #expect(
      tasks.contains { $0.lowercased().contains("priya") || $0.lowercased().contains("budget") }, "tasks: \(tasks)")
    #expect(try Data(contentsOf: audio) == before, "the original recording is untouched")

    // Persistence across processes: a new process lists and finds it.
    let listed = try voicenotes(["list"], library: library)
    #expect(listed.standardOutput.contains(String(id.prefix(8))))
    let found = try voicenotes(["search", "pri", "--scope", "people"], library: library)
    #expect(found.standardOutput.contains(String(id.prefix(8))))
    let open = try voicenotes(["tasks", "--person", "priya"], library: library)
    #expect(open.standardOutput.contains("["), "\(open.standardOutput)")
  }

  @Test("a note killed during analysis: reading commands return at once, `resume` finishes it")
  func resumesAfterKill() throws {
    let folder = Fixtures.temporaryFolder("note-kill")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let audio = folder.appendingPathComponent("errand.wav")
    try Fixtures.speak("Pick up the parcel from the post office and email Marcus the photos from Saturday.", to: audio)

    let process = Process()
    process.executableURL = Fixtures.program
    process.arguments = ["import", "--quiet", audio.path, "--library", library.path]
    let log = folder.appendingPathComponent("import.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: log)
    try process.runWithDefaultSignals()
    // Wait until the note is being analysed, then kill the process without warning.
    let deadline = Date().addingTimeInterval(120)
    var sawAnalysis = false
    while Date() < deadline && process.isRunning {
      let listed = try? voicenotes(["list", "--json"], library: library)
      if listed?.standardOutput.contains("\"analyzing\"") == true {
        sawAnalysis = true
        break
      }
      usleep(200_000)
    }
    #expect(
      sawAnalysis, "the import never reached the analysis: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()

    // Reading commands do not wait for the unfinished note.
    for command in [["list", "--json"], ["search", "parcel"], ["tasks"]] {
      let started = Date()
      let read = try voicenotes(command, library: library)
      let seconds = Date().timeIntervalSince(started)
      print(String(format: "%@ with an unfinished note: %.3f s", command[0], seconds))
      #expect(read.status == 0 && seconds < 0.5, "\(command): \(seconds) s, \(read.standardError)")
    }
    #expect(try voicenotes(["list", "--json"], library: library).standardOutput.contains("\"analyzing\""))
    let resumed = try voicenotes(["resume", "--quiet"], library: library)
    #expect(resumed.status == 0, "\(resumed.standardError)")
    let listed = try voicenotes(["list", "--json"], library: library)
    let notes = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
    #expect(notes.count == 1)
    #expect(notes.first?["state"] as? String == "done", "\(listed.standardOutput)")
    #expect((notes.first?["summary"] as? String)?.isEmpty == false)
  }

  @Test("without a language model a note is still transcribed, and analysed once the model is there")
  func analysisWaitsForTheModel() throws {
    let folder = Fixtures.temporaryFolder("note-no-model")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let off = ["VOICENOTES_LANGUAGE_MODEL": "off"]
    let imported = try Program.run(
      [Fixtures.program.path, "import", Fixtures.jfk.path, "--library", library.path], environment: off)
    #expect(imported.status == 0, "\(imported.standardError)")
    #expect(imported.standardError.contains("analysis waits for the language model"), "\(imported.standardError)")
    let id = imported.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    let waiting = try noteJSON(id, library: library)
    #expect(waiting["state"] as? String == "analyzing" && waiting["error"] == nil, "\(waiting)")
    #expect(waiting["transcript"] != nil)
    let resumed = try voicenotes(["resume", "--quiet"], library: library)
    #expect(resumed.status == 0, "\(resumed.standardError)")
    let done = try noteJSON(id, library: library)
    #expect(done["state"] as? String == "done")
    #expect((done["summary"] as? String)?.isEmpty == false)
  }

  @Test("bad files give one-line errors and leave the library as it was")
  func badFiles() throws {
    let folder = Fixtures.temporaryFolder("note-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let empty = folder.appendingPathComponent("empty.m4a")
    _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
    let text = folder.appendingPathComponent("notes.txt")
    try Data("not audio\n".utf8).write(to: text)
    let corrupt = folder.appendingPathComponent("broken.wav")
    try Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: corrupt)
    for file in [empty, text, corrupt, folder.appendingPathComponent("missing.mp3")] {
      let result = try voicenotes(["import", "--quiet", file.path], library: library)
      #expect(result.status == 1)
      let lines = result.standardError.split(separator: "\n")
      #expect(lines.count == 1 && lines[0].contains(file.lastPathComponent), "\(result.standardError)")
    }
    let audio =
      (try? FileManager.default.contentsOfDirectory(atPath: library.appendingPathComponent("audio").path)) ?? []
    #expect(audio.isEmpty, "no audio was copied: \(audio)")
    let listed = try voicenotes(["list", "--json"], library: library).standardOutput
    let notes = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [Any]
    #expect(notes?.isEmpty == true, "no note was saved: \(listed)")
  }

  @Test("a transcript longer than the context window is analysed in pieces and merged")
  func chunkedAnalysis() async throws {
    let model = SystemLanguageModel(weights: .small, contextSize: 2800)
    let analyzer = NoteAnalyzer(model: model)
    let paragraphs = [
      "Monday planning. Ingrid will draft the grant proposal and send it to the board by Friday.",
      "The lab move is next month. Tomasz needs to book the van and label every crate.",
      "For the conference, Amara should register the team and reserve two hotel rooms.",
    ]
    var transcript = ""
    for (index, paragraph) in paragraphs.enumerated() {
      transcript += paragraph + " "
      // Filler between the facts, so the whole does not fit in one request.
      for sentence in 0..<4 {
        transcript += "Notes on item \(index + 1).\(sentence + 1): the discussion went over schedules and rooms again. "
      }
    }
    let pieces = try await analyzer.split(transcript)
    #expect(pieces.count >= 2, "the transcript should need several requests")
    // A transcript that fits the context but is longer than a piece's words goes in pieces of
    // about equal length, every sentence in one of them.
    let roomy = NoteAnalyzer(model: SystemLanguageModel(weights: .small))
    let long = (1...45).map { "Item \($0) on the list is the blue crate number \($0) for the lab." }.joined(
      separator: " ")
    let even = try await roomy.split(long)
    let counts = even.map { $0.split(separator: " ").count }
    #expect(even.count == 4 && counts.allSatisfy { (140...170).contains($0) }, "630 words: \(counts)")
    #expect(even.joined(separator: " ") == long)
    let analysis = try await analyzer.analyze(transcript)
    let people = Set(analysis.people)
    #expect(people.isSubset(of: ["Ingrid", "Tomasz", "Amara"]), "no invented people: \(people)")
    #expect(people.count >= 2, "people from different pieces: \(people)")
    #expect(!analysis.summary.isEmpty && (1...5).contains(analysis.tags.count))
  }
}
