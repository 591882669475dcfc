import Foundation
import TestSupport
import Testing
import VoiceNotes

/// The LiveTranscription example (seed 002) run as people would run it in a script: with
/// `--input` and no terminal it starts at once, prints final lines and ends with the file.
@Suite("LiveTranscription example", .serialized)
struct RecordLiveTranscriptionExampleTests {
  func example(_ arguments: [String]) throws -> Program {
    try Program.run(
      [Fixtures.product("LiveTranscription").path] + arguments,
      environment: ["VOICENOTES_MODELS": Fixtures.models.path])
  }

  @Test("--input jfk.wav without a terminal prints the final text and ends with the file")
  func transcribesAFile() throws {
    let started = Date()
    let result = try example(["--input", Fixtures.jfk.path])
    let elapsed = Date().timeIntervalSince(started)
    #expect(result.status == 0, "\(result.standardError)")
    let rate = WordErrorRate(reference: Fixtures.jfkText, hypothesis: result.standardOutput)
    print("LiveTranscription --input jfk.wav: WER \(rate) in \(elapsed) s: \(result.standardOutput)")
    #expect(rate.rate <= 0.05, "\(result.standardOutput)")
    #expect(elapsed >= 11, "played in real time (jfk.wav lasts 11 s)")
    #expect(!result.standardOutput.contains("\u{1B}"), "no terminal codes in a pipe")
    #expect(result.standardOutput.split(separator: "\n").count >= 2, "one line per final result")
  }

  @Test("a missing file and a bad option fail with a message")
  func failures() throws {
    let missing = try example(["--input", "/nonexistent/memo.wav"])
    #expect(missing.status == 1)
    #expect(missing.standardError.contains("memo.wav: no such file"), "\(missing.standardError)")
    let bad = try example(["--model", "huge"])
    #expect(bad.status == 2)
    #expect(bad.standardError.contains("usage: LiveTranscription"), "\(bad.standardError)")
  }
}
