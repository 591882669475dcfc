import Foundation
import TestSupport
import Testing

/// Every command's `--help`, word for word: the text in Help/ is what a person reads, reviewed
/// there, so a change to an option, an example or the exit statuses shows in the diff.
@Suite("voicenotes help text")
struct HelpTextTests {
  static let commands = [
    "", "serve", "import", "record", "list", "show", "search", "ask", "tasks", "done", "undone", "retry", "resume",
    "analyze",
    "rename", "delete", "export", "samples", "samples restore", "vocabulary", "vocabulary add", "vocabulary list",
    "vocabulary remove", "speakers", "speakers list", "speakers name", "speakers unname", "speakers rename",
    "speakers merge", "speakers forget", "transcribe", "models", "models install", "config", "config add-server",
    "config remove-server",
    "doctor", "completion",
  ]

  @Test("--help prints the reviewed text for every command", arguments: commands)
  func help(_ command: String) throws {
    let words = command.split(separator: " ").map(String.init)
    let result = try Program.run([Fixtures.program.path] + words + ["--help"])
    #expect(result.status == 0)
    let name = command.isEmpty ? "voicenotes" : "voicenotes-" + words.joined(separator: "-")
    let file = Fixtures.root.appendingPathComponent("Tests/voicenotesTests/Help/\(name).txt")
    let expected = try String(contentsOf: file, encoding: .utf8)
    #expect(
      result.standardOutput == expected, "\(name): run `voicenotes \(command) --help` and compare with \(file.path)")
    // `help <command>` is the same text.
    #expect(try Program.run([Fixtures.program.path, "help"] + words).standardOutput == expected)
  }

  @Test("every command is in the list above, so none goes without reviewed help")
  func everyCommandListed() throws {
    let root = try Program.run([Fixtures.program.path, "--help"]).standardOutput
    let section = root.components(separatedBy: "SUBCOMMANDS:\n")[1].components(separatedBy: "\n\n")[0]
    let names = section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    #expect(Set(names).isSubset(of: Set(Self.commands)), "\(names)")
  }
}
