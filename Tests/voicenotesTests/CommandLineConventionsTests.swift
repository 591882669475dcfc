import Foundation
import TestSupport
import Testing
import VoiceNotes

/// The conventions of well-loved command lines, checked on the real program: exit statuses, JSON
/// fields, colour only on a terminal, several ids, files never overwritten silently, and messages
/// that say what happened. The library is seeded through the store (no engine runs here except
/// where a test says so), so these checks take seconds.
@Suite("voicenotes command-line conventions", .serialized)
struct CommandLineConventionsTests {
  /// A library with two analysed notes and their action items, and a copy of jfk.wav as audio.
  struct SeededLibrary {
    let folder: URL
    var library: URL { folder.appendingPathComponent("library") }
    let budget = "aaaa1111-0000-4000-8000-000000000001"
    let errands = "bbbb2222-0000-4000-8000-000000000002"

    init() async throws {
      folder = Fixtures.temporaryFolder("cli-conventions")
      let store = try NoteStore(library: folder.appendingPathComponent("library"))
      for (id, title, items, people) in [
        (
          budget, "Budget call with Priya",
          [
            NoteActionItem(
              id: "cccc0001-0000-4000-8000-000000000001", task: "Send Priya the budget", people: ["Priya"]),
            NoteActionItem(id: "cccc0002-0000-4000-8000-000000000002", task: "Book the room for Friday"),
          ], ["Priya"]
        ),
        (
          errands, "Errands for the weekend",
          [NoteActionItem(id: "dddd0001-0000-4000-8000-000000000001", task: "Buy milk and eggs")], []
        ),
      ] {
        try FileManager.default.copyItem(at: Fixtures.jfk, to: store.audioFolder.appendingPathComponent("\(id).wav"))
        var note = VoiceNote(id: id, duration: 11, audioFileName: "\(id).wav", originalFileName: "\(title).wav")
        note.title = title
        note.summary = "About \(title.lowercased())."
        note.tags = ["work"]
        note.people = people
        note.actionItems = items
        note.transcript = Transcript(
          language: "en", duration: 11,
          segments: [
            .init(
              text: "We talked about the budget and the room.", start: 0, end: 4,
              words: [.init(text: "We", start: 0, end: 0.3, confidence: 0.9)])
          ])
        note.processing = ProcessingState(stage: .done)
        try await store.save(note)
      }
    }

    func run(_ arguments: String..., environment: [String: String] = [:]) throws -> Program {
      try Program.run([Fixtures.program.path] + arguments + ["--library", library.path], environment: environment)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
  }

  func json(_ program: Program) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(program.standardOutput.utf8))
  }

  @Test("exit statuses: 0 done, 1 failed or no match, 2 usage; each documented in --help")
  func exitStatuses() async throws {
    let seeded = try await SeededLibrary()
    defer { seeded.remove() }
    #expect(try seeded.run("search", "budget").status == 0)
    let none = try seeded.run("search", "zebra")
    #expect(none.status == 1 && none.standardOutput.isEmpty, "\(none)")
    #expect(none.standardError == "No notes match 'zebra'.\n")
    #expect(try seeded.run("search", "zebra", "--json").standardOutput == "[\n\n]\n")
    #expect(try seeded.run("show", "ffff").status == 1)
    for usage in [
      ["list", "--bogus"], ["search", "x", "--scope", "actionItems"], ["show"], ["export", "aaaa", "-f", "doc"],
    ] {
      let result = try Program.run([Fixtures.program.path] + usage + ["--library", seeded.library.path])
      #expect(result.status == 2, "\(usage): \(result.status) \(result.standardError)")
      #expect(result.standardError.hasPrefix("voicenotes: error: ") && result.standardError.hasSuffix("--help`)\n"))
    }
    let help = try seeded.run("search", "--help").standardOutput
    #expect(help.contains("EXIT STATUS:\n  0  Success.\n  1  Failure"), "\(help)")
    #expect(help.contains("EXAMPLES:\n  voicenotes search budget\n"))
  }

  @Test("--json on every command that prints: stable fields, unescaped slashes, words only on request")
  func jsonFields() async throws {
    let seeded = try await SeededLibrary()
    defer { seeded.remove() }
    let listed = try #require(try json(seeded.run("list", "--json")) as? [[String: Any]])
    #expect(listed.count == 2)
    let first = try #require(listed.first { $0["id"] as? String == seeded.budget })
    #expect(
      Set(first.keys) == [
        "id", "title", "customTitle", "createdAt", "duration", "originalFileName", "state", "summary", "tags",
        "people", "actionItems",
      ], "\(first.keys.sorted())")
    #expect(first["state"] as? String == "done")
    let shown = try #require(try json(seeded.run("show", "aaaa", "--json")) as? [String: Any])
    let transcript = try #require(shown["transcript"] as? [String: Any])
    let segments = try #require(transcript["segments"] as? [[String: Any]])
    #expect(segments.first?["words"] == nil && segments.first?["start"] as? Double == 0)
    let worded = try #require(try json(seeded.run("show", "aaaa", "--json", "--words")) as? [String: Any])
    #expect(((worded["transcript"] as? [String: Any])?["segments"] as? [[String: Any]])?.first?["words"] != nil)
    #expect(try seeded.run("show", "aaaa", "--words").status == 2, "--words without --json is a usage error")

    let renamed = try #require(
      try json(seeded.run("rename", "bbbb", "Shopping", "list/errands", "--json")) as? [String: Any])
    #expect(renamed["title"] as? String == "Shopping list/errands" && renamed["customTitle"] as? Bool == true)
    #expect(try seeded.run("rename", "bbbb", "a/b", "--json").standardOutput.contains("\"a/b\""), "no \\/ escapes")
    let ticked = try #require(try json(seeded.run("done", "cccc0001", "dddd", "--json")) as? [[String: Any]])
    #expect(
      ticked.map { $0["changed"] as? Bool } == [true, true] && ticked.allSatisfy { $0["isCompleted"] as? Bool == true })
    let reopened = try #require(try json(seeded.run("undone", "dddd", "--json")) as? [[String: Any]])
    #expect(reopened.first?["isCompleted"] as? Bool == false)
    let tasks = try #require(try json(seeded.run("tasks", "--json")) as? [[String: Any]])
    #expect(tasks.map { $0["noteID"] as? String }.contains(seeded.errands))
    let vocabulary = try #require(try json(seeded.run("vocabulary", "add", "Priya", "--json")) as? [String: Any])
    #expect(vocabulary["added"] as? [String] == ["Priya"])
    let models = try #require(try json(Program.run([Fixtures.program.path, "models", "--json"])) as? [[String: Any]])
    #expect(models.contains { ($0["path"] as? String)?.contains("/") == true })
    let deleted = try #require(try json(seeded.run("delete", "--yes", "bbbb", "--json")) as? [[String: Any]])
    #expect(deleted.first?["id"] as? String == seeded.errands)
  }

  @Test("colour on a terminal only, and never under NO_COLOR or --no-color")
  func colour() async throws {
    let seeded = try await SeededLibrary()
    defer { seeded.remove() }
    func inTerminal(_ command: String, environment: [String: String] = [:]) throws -> String {
      // `script` runs the command on a pseudo-terminal, as a person's shell would.
      try Program.run(
        ["script", "-qec", "\(Fixtures.program.path) \(command) --library \(seeded.library.path)", "/dev/null"],
        // An empty NO_COLOR counts as unset (no-color.org), whatever the test runner's own is.
        environment: ["TERM": "xterm-256color", "NO_COLOR": ""].merging(environment) { $1 }
      ).standardOutput
    }
    let coloured = try inTerminal("search budget")
    #expect(coloured.contains("\u{1B}[1;31m"), "matches in colour on a terminal: \(coloured)")
    #expect(!coloured.contains("[budget]"))
    for plain in [
      try inTerminal("search budget", environment: ["NO_COLOR": "1"]), try inTerminal("search budget --no-color"),
    ] {
      #expect(!plain.contains("\u{1B}["), "\(plain)")
      #expect(plain.lowercased().contains("[budget]"), "\(plain)")
    }
    let piped = try seeded.run("list").standardOutput
    #expect(!piped.contains("\u{1B}[") && piped.hasPrefix("ID        CREATED"), "\(piped)")
  }

  @Test("record's live transcript dims tentative words on a terminal, and not under NO_COLOR")
  func recordHonoursNoColor() throws {
    let folder = Fixtures.temporaryFolder("cli-record-color")
    defer { try? FileManager.default.removeItem(at: folder) }
    func record(noColor: String) throws -> String {
      let library = folder.appendingPathComponent("library-\(noColor.isEmpty ? "color" : "plain")")
      let command =
        "\(Fixtures.program.path) record --input \(Fixtures.jfk.path) --live-model tiny.en --no-process -q "
        + "--library \(library.path)"
      return try Program.run(
        ["script", "-qec", command, "/dev/null"], environment: ["TERM": "xterm-256color", "NO_COLOR": noColor]
      ).standardOutput
    }
    let coloured = try record(noColor: "")
    #expect(coloured.contains("\u{1B}[2m"), "tentative words dimmed: \(coloured.debugDescription)")
    let plain = try record(noColor: "1")
    #expect(!plain.contains("\u{1B}[2m") && !plain.contains("\u{1B}[22m"), "\(plain.debugDescription)")
    #expect(plain.lowercased().contains("country"), "the live text is still shown: \(plain.debugDescription)")
  }

  @Test("record in a 40-column tmux pane: the live transcript ends up in the scrollback once, wrapped between words")
  func recordInATerminal() throws {
    let folder = Fixtures.temporaryFolder("cli-record-tmux")
    defer { try? FileManager.default.removeItem(at: folder) }
    let pane = try TerminalPane(columns: 40, rows: 12, folder: folder)
    defer { pane.close() }
    let library = folder.appendingPathComponent("library")
    let run = try pane.run(
      "'\(Fixtures.program.path)' record --input '\(Fixtures.jfk.path)' --no-process -q --library '\(library.path)'",
      timeout: 90)
    #expect(run.status == 0, "\(run.standardError)")
    let rows = try pane.screenRows()
    let written = rows.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    let words = Set(WordErrorRate.normalizedWords(Fixtures.jfkText))
    let pieces = written.flatMap { WordErrorRate.normalizedWords($0) }
    #expect(pieces.count >= 15 && pieces.allSatisfy { words.contains($0) }, "\(rows)")
    #expect(Set(written).count == written.count, "a row is there twice: \(rows)")
    let leftovers = zip(written, written.dropFirst()).filter { $1.hasPrefix($0) }
    #expect(leftovers.isEmpty, "partial rows left behind: \(leftovers.map(\.0))")
  }

  @Test("several ids for done, undone, delete and export; nothing deleted when one id is unknown")
  func severalIDs() async throws {
    let seeded = try await SeededLibrary()
    defer { seeded.remove() }
    let twice = try seeded.run("done", "cccc0001", "cccc0001")
    #expect(twice.status == 0)
    #expect(twice.standardOutput.contains("already done, nothing changed"), "\(twice.standardOutput)")
    let unknown = try seeded.run("delete", "--yes", "aaaa", "ffff")
    #expect(unknown.status == 1 && unknown.standardError.contains("ffff"))
    #expect(try seeded.run("list", "--json").standardOutput.contains(seeded.budget), "nothing was deleted")
    let noTerminal = try seeded.run("delete", "aaaa")
    #expect(noTerminal.status == 2 && noTerminal.standardError.contains("--yes"), "\(noTerminal.standardError)")

    let out = seeded.folder.appendingPathComponent("out")
    let exported = try seeded.run("export", "aaaa", "bbbb", "-f", "txt", "-o", out.path)
    #expect(exported.status == 0, "\(exported.standardError)")
    let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(files == ["Budget call with Priya.txt", "Errands for the weekend.txt"], "\(files)")
    let again = try seeded.run("export", "aaaa", "bbbb", "-f", "txt", "-o", out.path)
    #expect(again.status == 1 && again.standardError.contains("--force"), "never overwritten silently")
    #expect(try seeded.run("export", "aaaa", "bbbb", "-f", "txt", "-o", out.path, "--force").status == 0)
    let single = seeded.folder.appendingPathComponent("one.md")
    #expect(try seeded.run("export", "aaaa", "-o", single.path).status == 0)
    #expect(try String(contentsOf: single, encoding: .utf8).contains("Budget call with Priya"))
    let both = try #require(try json(seeded.run("export", "aaaa", "bbbb", "-f", "json")) as? [[String: Any]])
    #expect(both.count == 2)
    #expect(try seeded.run("export", "aaaa", "bbbb", "-f", "srt").status == 2, "two subtitle files need --output")
  }

  @Test("messages that say what happened: whose tasks, the stored spelling, an empty vocabulary, a finished note")
  func messages() async throws {
    let seeded = try await SeededLibrary()
    defer { seeded.remove() }
    let nobody = try seeded.run("tasks", "--person", "marcus")
    #expect(
      nobody.standardOutput
        == "No open action items involve 'marcus' (3 open action items in all; `voicenotes tasks` lists them).\n",
      "\(nobody.standardOutput)")
    let empty = try seeded.run("vocabulary", "list")
    #expect(empty.standardOutput.isEmpty && empty.standardError.contains("vocabulary is empty"))
    _ = try seeded.run("vocabulary", "add", "Anneliese Hoffmann")
    #expect(
      try seeded.run("vocabulary", "remove", "anneliese hoffmann").standardOutput == "removed Anneliese Hoffmann\n")
    let finished = try seeded.run("retry", "aaaa")
    #expect(
      finished.status == 1 && finished.standardError.contains("voicenotes analyze aaaa1111"),
      "\(finished.standardError)")
    let models = try Program.run([Fixtures.program.path, "models"]).standardOutput
    #expect(!models.contains("supported"))
    // A title cannot carry a newline or an escape sequence to the terminal.
    let renamed = try seeded.run("rename", "aaaa", "a\nb\u{1B}[31mred")
    #expect(renamed.standardOutput.hasSuffix("a b [31mred\n"), "\(renamed.standardOutput.debugDescription)")
    #expect(!(try seeded.run("list").standardOutput.contains("\u{1B}")))
  }

  @Test("import follows a link and keeps the audio itself, and says when a recording is already there")
  func importLinksAndDuplicates() throws {
    let folder = Fixtures.temporaryFolder("cli-import")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let original = folder.appendingPathComponent("orig.wav")
    try FileManager.default.copyItem(at: Fixtures.jfk, to: original)
    let link = folder.appendingPathComponent("link.wav")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "orig.wav")
    func voicenotes(_ arguments: String...) throws -> Program {
      try Program.run([Fixtures.program.path] + arguments + ["--library", library.path])
    }
    let imported = try voicenotes("import", "--no-process", "--json", link.path)
    #expect(imported.status == 0, "\(imported.standardError)")
    let notes = try #require(
      try JSONSerialization.jsonObject(with: Data(imported.standardOutput.utf8)) as? [[String: Any]])
    let id = try #require(notes.first?["id"] as? String)
    #expect(notes.first?["originalFileName"] as? String == "link.wav")
    try FileManager.default.removeItem(at: original)
    let audio = try FileManager.default.contentsOfDirectory(
      at: library.appendingPathComponent("audio"), includingPropertiesForKeys: nil)
    let stored = try #require(audio.first { $0.lastPathComponent.hasPrefix(id) })
    #expect(try Data(contentsOf: stored) == Data(contentsOf: Fixtures.jfk), "the library holds the audio, not a link")
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: stored.path)) == nil)

    let duplicate = try voicenotes("import", "--no-process", Fixtures.jfk.path)
    #expect(duplicate.status == 0)
    #expect(
      duplicate.standardError.contains("already in the library as note \(id.prefix(8))"), "\(duplicate.standardError)")
    #expect(duplicate.standardOutput == "\(id.prefix(8))\n")
    let forced = try voicenotes("import", "--no-process", "--again", Fixtures.jfk.path)
    #expect(forced.standardOutput != duplicate.standardOutput && forced.status == 0)
  }

  @Test("transcribe never writes two inputs to one file, and never replaces a file without --force")
  func transcribeOutputs() throws {
    let folder = Fixtures.temporaryFolder("cli-transcribe-out")
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["A", "B"] {
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
      try FileManager.default.copyItem(at: Fixtures.jfk, to: folder.appendingPathComponent("\(name)/m.wav"))
    }
    let out = folder.appendingPathComponent("out")
    let clash = try Program.run([
      Fixtures.program.path, "transcribe", "-q", "-m", "tiny.en", folder.appendingPathComponent("A/m.wav").path,
      folder.appendingPathComponent("B/m.wav").path, "-o", out.path,
    ])
    #expect(clash.status == 2 && clash.standardError.contains("would both be written"), "\(clash.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out.path))
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: out.appendingPathComponent("m.txt"))
    let existing = try Program.run([
      Fixtures.program.path, "transcribe", "-q", "-m", "tiny.en", folder.appendingPathComponent("A/m.wav").path, "-o",
      out.path,
    ])
    #expect(existing.status == 1 && existing.standardError.contains("--force"))
    #expect(try String(contentsOf: out.appendingPathComponent("m.txt"), encoding: .utf8) == "mine")
  }

  @Test("completion scripts that bash, zsh and fish accept, and that complete commands and values")
  func completion() throws {
    let folder = Fixtures.temporaryFolder("cli-completion")
    defer { try? FileManager.default.removeItem(at: folder) }
    for shell in ["bash", "zsh", "fish"] {
      let script = try Program.run([Fixtures.program.path, "completion", shell])
      #expect(script.status == 0)
      let file = folder.appendingPathComponent("voicenotes.\(shell)")
      try Data(script.standardOutput.utf8).write(to: file)
      let check = try Program.run(shell == "fish" ? ["fish", "--no-execute", file.path] : [shell, "-n", file.path])
      #expect(check.status == 0, "\(shell): \(check.standardError)")
    }
    func bashComplete(_ line: String) throws -> [String] {
      let script = folder.appendingPathComponent("voicenotes.bash").path
      let words = line.split(separator: " ", omittingEmptySubsequences: false).map { "'\($0)'" }.joined(separator: " ")
      let result = try Program.run([
        "bash", "-c",
        "source \(script); COMP_WORDS=(\(words)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _voicenotes; printf '%s\\n' \"${COMPREPLY[@]}\"",
      ])
      return result.standardOutput.split(separator: "\n").map(String.init)
    }
    #expect(try bashComplete("voicenotes mo") == ["models"])
    #expect(try bashComplete("voicenotes models ").contains("install"))
    #expect(try bashComplete("voicenotes search x --scope a") == ["all", "action-items"])
    #expect(try bashComplete("voicenotes export x -f ").sorted() == ["json", "md", "srt", "txt", "vtt"])
    #expect(try bashComplete("voicenotes transcribe --model ").contains("base-q8"))
    let fish = try Program.run([
      "fish", "-c",
      "source \(folder.appendingPathComponent("voicenotes.fish").path); complete -C'voicenotes vocabulary re'",
    ])
    #expect(fish.standardOutput.hasPrefix("remove\t"), "\(fish.standardOutput)")
    #expect(try Program.run([Fixtures.program.path, "completion", "tcsh"]).status == 2)
  }
}
