import Foundation
import Synchronization
import TestSupport
import Testing
import VoiceNotes

/// `voicenotes vocabulary`: a name Whisper misspells is spelled right once it is in the vocabulary.
@Suite("voicenotes vocabulary", .serialized)
struct VocabularyCommandTests {
  func voicenotes(_ arguments: [String], library: URL) throws -> Program {
    // No analysis: these tests are about the transcript's words, and the analysis of each import
    // would take most of their time.
    try Program.run(
      [Fixtures.program.path] + arguments + ["--library", library.path],
      environment: ["VOICENOTES_LANGUAGE_MODEL": "off"])
  }

  /// Imports `audio` (again, when the library has it already) and returns its transcript as
  /// plain text.
  func transcript(of audio: URL, library: URL) throws -> String {
    let imported = try voicenotes(["import", "--again", "--quiet", audio.path], library: library)
    #expect(imported.status == 0, "\(imported.standardError)")
    let id = imported.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    return try voicenotes(["export", id, "--format", "txt"], library: library).standardOutput
  }

  @Test("add, list and remove terms; an added name is spelled right in the next transcription")
  func addedNameIsSpelledRight() throws {
    let folder = Fixtures.temporaryFolder("vocabulary")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let audio = folder.appendingPathComponent("meeting.wav")
    let spoken = "Meeting with Anneliese Hoffmann at noon about the budget."
    try Fixtures.speak(spoken, to: audio)

    let before = try transcript(of: audio, library: library)
    #expect(!before.contains("Anneliese Hoffmann"), "the model alone misspells the name: \(before)")

    let added = try voicenotes(["vocabulary", "add", "Anneliese Hoffmann", "Grafana"], library: library)
    #expect(added.status == 0, "\(added.standardError)")
    let listed = try voicenotes(["vocabulary", "list"], library: library).standardOutput
    #expect(listed == "Anneliese Hoffmann\nGrafana\n")

    let after = try transcript(of: audio, library: library)
    #expect(after.contains("Anneliese Hoffmann"), "with the vocabulary: \(after)")
    // The name's two words come right and nothing else gets worse: the vocabulary steers the
    // name, it does not trade it for mistakes elsewhere.
    let errorsBefore = WordErrorRate(reference: spoken, hypothesis: before).edits
    let errorsAfter = WordErrorRate(reference: spoken, hypothesis: after).edits
    #expect(errorsAfter <= errorsBefore - 2, "\(before) (\(errorsBefore) errors) -> \(after) (\(errorsAfter))")

    #expect(try voicenotes(["vocabulary", "remove", "grafana"], library: library).status == 0)
    #expect(try voicenotes(["vocabulary", "list"], library: library).standardOutput == "Anneliese Hoffmann\n")
    let missing = try voicenotes(["vocabulary", "remove", "Nobody"], library: library)
    #expect(missing.status == 1)
    #expect(missing.standardError.split(separator: "\n").count == 1, "\(missing.standardError)")
  }

  @Test("processes that add terms at the same moment each keep their term")
  func concurrentAddsAreAllKept() throws {
    let folder = Fixtures.temporaryFolder("vocabulary-concurrent")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let names = (1...6).map { "Worker\($0)" }
    let statuses = Mutex([Int32](repeating: -1, count: names.count))
    DispatchQueue.concurrentPerform(iterations: names.count) { index in
      let status = (try? voicenotes(["vocabulary", "add", names[index]], library: library))?.status ?? -1
      statuses.withLock { $0[index] = status }
    }
    #expect(statuses.withLock { $0 } == Array(repeating: 0, count: names.count))
    let listed = try voicenotes(["vocabulary", "list"], library: library).standardOutput
    #expect(Set(listed.split(separator: "\n").map(String.init)) == Set(names), "\(listed)")
  }
}
