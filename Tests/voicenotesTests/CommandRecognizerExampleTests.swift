import Foundation
import TestSupport
import Testing

/// Examples/CommandRecognizer (seed 003) with a spoken file played in real time.
@Suite("CommandRecognizer example", .serialized)
struct CommandRecognizerExampleTests {
  /// The example's output for `sentence` spoken by espeak-ng with pauses around it.
  func recognize(_ sentence: String, _ options: [String] = []) throws -> Program {
    let folder = Fixtures.temporaryFolder("command")
    defer { try? FileManager.default.removeItem(at: folder) }
    let spoken = folder.appendingPathComponent("spoken.wav")
    let padded = folder.appendingPathComponent("command.wav")
    try Fixtures.speak(sentence, to: spoken)
    try Fixtures.run(["sox", spoken.path, "-r", "16000", padded.path, "pad", "0.5", "1.5"])
    return try Program.run([Fixtures.product("CommandRecognizer").path, "--input", padded.path] + options)
  }

  @Test("commands change the background; something else is reported as not a command")
  func commandsAndOtherSpeech() throws {
    let blue = try recognize("Set background to blue")
    #expect(blue.status == 0, "\(blue.standardError)")
    #expect(blue.standardOutput.contains("\"Set background to blue.\": background blue"), "\(blue.standardOutput)")
    let fire = try recognize("I am fire")
    #expect(fire.standardOutput.contains(": background orange"), "\(fire.standardOutput)")
    #expect(blue.standardOutput.contains("Say: \"Set background to blue\""), "the commands are on the screen")
    #expect(blue.standardOutput.contains("\"I am fire\"") && blue.standardOutput.contains("Ctrl-C stops"))
    let other = try recognize("Hello, how are you doing today?")
    #expect(other.standardOutput.contains("not a command"), "\(other.standardOutput)")
    #expect(!other.standardOutput.contains(": background"), "\(other.standardOutput)")
  }

  @Test("without the custom model, plain Whisper mishears the seed's command")
  func withoutTheModel() throws {
    let plain = try recognize("I am sea", ["--no-custom-model"])
    #expect(plain.status == 0, "\(plain.standardError)")
    #expect(!plain.standardOutput.contains("background blue"), "\(plain.standardOutput)")
  }

  @Test("--help lists the commands a person can say; a bad option is a usage error")
  func help() throws {
    let program = Fixtures.product("CommandRecognizer").path
    let help = try Program.run([program, "--help"])
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("COMMANDS (say them):\n  Set background to blue"), "\(help.standardOutput)")
    #expect(help.standardOutput.contains("  I am fire                 orange background\n"))
    let bad = try Program.run([program, "--model", "huge"])
    #expect(bad.status == 2 && bad.standardError.contains("base-q8"), "\(bad.standardError)")
    #expect(try Program.run([program, "--bogus"]).status == 2)
  }
}
