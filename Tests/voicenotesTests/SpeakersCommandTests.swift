import AudioIO
import Foundation
import TestSupport
import Testing
import VoiceNotes

/// `voicenotes speakers` end to end with the real engines: conversations of real people joined at
/// test time (a LibriVox reader, John F. Kennedy, the pocketsphinx "cards" reader), transcribed,
/// diarized, a speaker named in one note and recognised in other recordings of the same voice.
@Suite("voicenotes speakers", .serialized)
struct SpeakersCommandTests {
  static let data = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data")

  func voicenotes(_ arguments: [String], library: URL) throws -> Program {
    // No analysis: these tests are about who speaks, and the language model would take minutes.
    try Program.run(
      [Fixtures.program.path] + arguments + ["--library", library.path],
      environment: ["VOICENOTES_LANGUAGE_MODEL": "off"])
  }

  /// 16 kHz mono samples of the file at `url`, scaled to one loudness (one microphone, one room).
  static func samples(_ url: URL) throws -> [Float] {
    let all = try AudioFile(forReading: url).read().samples
    let rms = (all.reduce(0) { $0 + $1 * $1 } / Float(max(all.count, 1))).squareRoot()
    return rms > 0 ? all.map { $0 * (0.05 / rms) } : all
  }

  /// The clips one after another with 0.7 s of faint noise between them, written to `url`.
  static func conversation(_ clips: [[Float]], to url: URL) throws {
    var joined: [Float] = []
    var state: UInt32 = 12_345
    func pause() {
      for _ in 0..<11_200 {
        state = state &* 1_664_525 &+ 1_013_904_223
        joined.append((Float(state >> 8) / Float(1 << 24) - 0.5) * 0.004)
      }
    }
    pause()
    for clip in clips {
      joined += clip
      pause()
    }
    let writer = try WAVWriter(url: url, format: .speechAnalysis)
    try writer.write(AudioBuffer(format: .speechAnalysis, samples: joined))
    try writer.close()
  }

  /// The note's segments as (speaker label, text).
  func segments(_ id: String, library: URL) throws -> (speakers: [[String: Any]], segments: [(String, String)]) {
    let shown = try voicenotes(["show", id, "--json"], library: library)
    let note = try #require(try JSONSerialization.jsonObject(with: Data(shown.standardOutput.utf8)) as? [String: Any])
    let segments = (note["transcript"] as? [String: Any])?["segments"] as? [[String: Any]] ?? []
    return (
      note["speakers"] as? [[String: Any]] ?? [],
      segments.map { ($0["speaker"] as? String ?? "", $0["text"] as? String ?? "") }
    )
  }

  @Test(
    "without the speakers model, doctor says how to install it; `speakers list` on a new library says how to name one")
  func missingModel() throws {
    let folder = Fixtures.temporaryFolder("speakers-doctor")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("no-models"), withIntermediateDirectories: true)
    _ = try NoteStore(library: library)
    let listed = try voicenotes(["speakers", "list"], library: library)
    #expect(listed.status == 0 && listed.standardOutput.isEmpty, "\(listed.standardError)")
    #expect(listed.standardError.contains("voicenotes speakers name"), "\(listed.standardError)")
    let doctor = try Program.run(
      [Fixtures.program.path, "doctor", "--library", library.path],
      environment: ["VOICENOTES_MODELS": folder.appendingPathComponent("no-models").path])
    #expect(doctor.status == 0, "\(doctor.standardError)")
    #expect(doctor.standardOutput.contains("`voicenotes models install speakers`"), "\(doctor.standardOutput)")
    let installed = try voicenotes(["doctor"], library: library)
    #expect(!installed.standardOutput.contains("speakers"), "\(installed.standardOutput)")
  }

  @Test("two voices are labelled; a reader named in one note is recognised in another, the others are not")
  func nameOnceRecogniseLater() throws {
    let folder = Fixtures.temporaryFolder("speakers-cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let reader = Self.data.appendingPathComponent("librivox/sense_and_sensibility_01_austen_64kb-0870.wav")
    let reader2 = Self.data.appendingPathComponent("librivox/sense_and_sensibility_01_austen_64kb-0890.wav")
    let first = folder.appendingPathComponent("first.wav")
    try Self.conversation(
      [try Self.samples(reader), try Self.samples(Fixtures.jfk), try Self.samples(reader2)], to: first)
    // The same reader in other recordings, with the cards reader, whom nobody named.
    let second = folder.appendingPathComponent("second.wav")
    try Self.conversation(
      [
        try Self.samples(Self.data.appendingPathComponent("cards/005.wav")),
        try Self.samples(Self.data.appendingPathComponent("librivox/sense_and_sensibility_01_austen_64kb-0920.wav")),
        try Self.samples(Self.data.appendingPathComponent("cards/002.wav")),
        try Self.samples(Self.data.appendingPathComponent("librivox/sense_and_sensibility_01_austen_64kb-0930.wav")),
      ], to: second)

    let imported = try voicenotes(["import", first.path], library: library)
    #expect(imported.status == 0, "\(imported.standardError)")
    #expect(imported.standardError.contains("identifying speakers"), "progress of the stage: \(imported.standardError)")
    let id = imported.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    let (speakers, labelled) = try segments(id, library: library)
    #expect(speakers.count == 2, "\(speakers)")
    // Kennedy speaks second: "fellow Americans" is Speaker 2's, the reader's words Speaker 1's.
    let kennedy = labelled.filter { $0.1.lowercased().contains("americans") }
    #expect(!kennedy.isEmpty && kennedy.allSatisfy { $0.0 == "Speaker 2" }, "\(labelled)")
    #expect(labelled.first?.0 == "Speaker 1", "\(labelled)")

    let named = try voicenotes(["speakers", "name", String(id.prefix(8)), "2", "John", "Kennedy"], library: library)
    #expect(named.status == 0, "\(named.standardError)")
    #expect(named.standardOutput.contains("speaker 2: John Kennedy"), "\(named.standardOutput)")
    #expect(try voicenotes(["speakers", "name", id, "1", "Marianne"], library: library).status == 0)
    let shown = try voicenotes(["show", id], library: library).standardOutput
    #expect(shown.contains("John Kennedy: And so my fellow Americans"), "\(shown)")

    // The reader in other recordings, with someone else: only the reader gets a name, and
    // nobody is taken for Kennedy.
    let again = try voicenotes(["import", second.path], library: library)
    #expect(again.status == 0, "\(again.standardError)")
    let secondID = again.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    let (found, secondSegments) = try segments(secondID, library: library)
    #expect(found.count == 2, "\(found)")
    let names = found.compactMap { $0["name"] as? String }
    #expect(names == ["Marianne"], "the reader recognised, the cards reader not named: \(found)")
    #expect(secondSegments.contains { $0.0 == "Marianne" }, "\(secondSegments)")

    let vtt = try voicenotes(["export", secondID, "--format", "vtt"], library: library).standardOutput
    #expect(vtt.contains("<v Marianne>"), "\(vtt)")
    let listed = try voicenotes(["speakers", "list"], library: library).standardOutput
    #expect(listed == "John Kennedy  1 note\nMarianne  2 notes\n", "\(listed)")

    // Rename, merge and forget, each seen in the notes.
    #expect(try voicenotes(["speakers", "rename", "marianne", "Elinor"], library: library).status == 0)
    #expect(
      try voicenotes(["export", secondID, "--format", "srt"], library: library).standardOutput.contains("Elinor: "))
    let clash = try voicenotes(["speakers", "rename", "Elinor", "john kennedy"], library: library)
    #expect(clash.status == 1)
    #expect(clash.standardError.contains("merge"), "\(clash.standardError)")
    #expect(try voicenotes(["speakers", "merge", "John Kennedy", "Elinor"], library: library).status == 0)
    #expect(try voicenotes(["speakers", "list"], library: library).standardOutput == "Elinor  2 notes\n")
    let forgotten = try voicenotes(["speakers", "forget", "Elinor"], library: library)
    #expect(forgotten.status == 0, "\(forgotten.standardError)")
    #expect(!(try voicenotes(["show", secondID], library: library).standardOutput.contains("Elinor")))
    let missing = try voicenotes(["speakers", "forget", "Elinor"], library: library)
    #expect(missing.status == 1)
    #expect(missing.standardError.split(separator: "\n").count == 1, "\(missing.standardError)")
    let badNumber = try voicenotes(["speakers", "name", id, "nine", "Ann"], library: library)
    #expect(badNumber.status == 2, "\(badNumber.standardError)")
  }
}
