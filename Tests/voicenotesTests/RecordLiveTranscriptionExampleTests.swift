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
    #expect(bad.standardError.contains("choose one of: base, base-q8, tiny.en"), "\(bad.standardError)")
    let help = try example(["--help"])
    #expect(
      help.status == 0 && help.standardOutput.contains("KEYS (in a terminal):\n  space"), "\(help.standardOutput)")
  }

  @Test("in a 50-column terminal: space starts, the text wraps between words, q quits")
  func terminal() throws {
    let folder = Fixtures.temporaryFolder("live-tmux")
    defer { try? FileManager.default.removeItem(at: folder) }
    let pane = try TerminalPane(columns: 50, rows: 20, folder: folder)
    defer { pane.close() }
    let program = Fixtures.product("LiveTranscription").path
    try pane.start("'\(program)' --input '\(Fixtures.jfk.path)'")
    var screen = ""
    var started = false
    let deadline = Date().addingTimeInterval(90)
    // Start once the screen is up; the file then plays in real time and recording stops at its end.
    while Date() < deadline {
      usleep(500_000)
      screen = try pane.screen()
      if !started && screen.contains("space: start recording") {
        try pane.send("Space")
        started = true
      } else if started && !screen.contains("Recording...") && screen.lowercased().contains("country") {
        break
      }
    }
    #expect(started, "the screen never came up:\n\(screen)")
    try pane.send("q")
    let run = try pane.waitForExit(timeout: 20)
    #expect(run.status == 0, "\(run.standardError)")
    // The app drew on the alternate screen: the shell's screen holds the transcript, once.
    #expect(!run.scrollback.contains("Speech to Text"), "redraws in the scrollback:\n\(run.scrollback)")
    #expect(run.scrollback.lowercased().components(separatedBy: "ask not").count == 2, "\(run.scrollback)")
    let text = screen.split(separator: "\n").dropFirst(2).map(String.init)
    let words = Set(WordErrorRate.normalizedWords(Fixtures.jfkText))
    // A line broken inside a word would leave pieces that are not words of the speech.
    let pieces = text.flatMap { WordErrorRate.normalizedWords($0) }
    #expect(pieces.count >= 15, "the transcript on the screen:\n\(screen)")
    #expect(pieces.allSatisfy { words.contains($0) }, "a word split across lines:\n\(screen)")
    #expect(text.allSatisfy { $0.count <= 50 })
  }
}
