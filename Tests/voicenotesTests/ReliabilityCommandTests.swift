import Foundation
import ModelSupport
import Synchronization
import TestSupport
import Testing
import VoiceNotes

/// What the command line does when the library or its input is not as it should be: an empty
/// database, a path that is a file, a full disk, a read-only file system, another process holding
/// the library, unusable vocabulary terms and oversized queries. Each answer is one line that says
/// what to do, and no recording is lost or changed.
@Suite("voicenotes when things go wrong", .serialized)
struct ReliabilityCommandTests {
  func voicenotes(_ arguments: [String], library: URL) throws -> Program {
    try Program.run([Fixtures.program.path] + arguments + ["--library", library.path])
  }

  /// Mounts a file system for one test (root can, on these machines); `unmount` undoes it.
  func mount(_ arguments: [String]) throws {
    let mounted = try Program.run(["mount"] + arguments)
    try #require(mounted.status == 0, "mount \(arguments): \(mounted.standardError)")
  }

  func unmount(_ folder: URL) { _ = try? Program.run(["umount", folder.path]) }

  func expectOneLine(_ run: Program, status: Int32 = 1, _ comment: Comment? = nil) {
    #expect(run.status == status, "\(run.standardError)")
    let lines = run.standardError.split(separator: "\n")
    #expect(lines.count == 1, "\(run.standardError)")
    #expect(!run.standardError.contains("NSCocoaErrorDomain"), "\(run.standardError)")
    #expect(!run.standardError.contains("SQLite code"), "\(run.standardError)")
  }

  var sample: URL { Fixtures.root.appendingPathComponent("Samples/groceries.opus") }

  @Test("an empty database beside recordings is refused, and doctor --repair makes notes of them again")
  func emptyDatabase() throws {
    let folder = Fixtures.temporaryFolder("empty-db")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    #expect(try voicenotes(["import", "--no-process", "--quiet", sample.path], library: library).status == 0)
    let audio = library.appendingPathComponent("audio")
    let stored = try FileManager.default.contentsOfDirectory(atPath: audio.path).filter { !$0.hasPrefix(".") }
    try #require(stored.count == 1)
    // The database loses its contents (a truncated file), its log with it.
    for name in ["notes.sqlite-wal", "notes.sqlite-shm"] {
      try? FileManager.default.removeItem(at: library.appendingPathComponent(name))
    }
    try Data().write(to: library.appendingPathComponent("notes.sqlite"))

    let listed = try voicenotes(["list"], library: library)
    expectOneLine(listed)
    #expect(listed.standardError.contains("doctor --repair"), "\(listed.standardError)")
    let checked = try voicenotes(["doctor"], library: library)
    #expect(checked.status == 1, "\(checked.standardOutput)")
    #expect(checked.standardOutput.contains("empty"), "\(checked.standardOutput)")

    let repaired = try voicenotes(["doctor", "--repair", "--json"], library: library)
    #expect(repaired.status == 0, "\(repaired.standardOutput) \(repaired.standardError)")
    let report = try JSONSerialization.jsonObject(with: Data(repaired.standardOutput.utf8)) as? [String: Any]
    #expect(report?["healthy"] as? Bool == true)
    #expect(report?["notes"] as? Int == 1)
    let kept = try FileManager.default.contentsOfDirectory(atPath: library.path).filter {
      $0.hasPrefix("notes.sqlite.empty-")
    }
    #expect(kept.count == 1, "the empty database is kept under a new name")
    let notes = try voicenotes(["list", "--json"], library: library)
    let list = try JSONSerialization.jsonObject(with: Data(notes.standardOutput.utf8)) as? [[String: Any]]
    #expect(list?.count == 1)
    #expect(try Data(contentsOf: audio.appendingPathComponent(stored[0])) == Data(contentsOf: sample))
  }

  @Test("doctor finds orphaned and missing recordings and partial copies; --repair adopts orphans unchanged")
  func doctor() throws {
    let folder = Fixtures.temporaryFolder("doctor")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let other = Fixtures.root.appendingPathComponent("Samples/book-idea.mp3")
    #expect(
      try voicenotes(["import", "--no-process", "--quiet", sample.path, other.path], library: library).status == 0)
    let healthy = try voicenotes(["doctor"], library: library)
    #expect(healthy.status == 0, "\(healthy.standardOutput)")
    #expect(healthy.standardOutput.contains("2 notes, 2 recordings: healthy"), "\(healthy.standardOutput)")

    let audio = library.appendingPathComponent("audio")
    let mp3 = try #require(
      try FileManager.default.contentsOfDirectory(atPath: audio.path).first { $0.hasSuffix(".mp3") })
    try FileManager.default.removeItem(at: audio.appendingPathComponent(mp3))
    let orphan = audio.appendingPathComponent("found.m4a")
    try FileManager.default.copyItem(at: Fixtures.root.appendingPathComponent("Samples/team-sync.m4a"), to: orphan)
    try Data("not audio".utf8).write(to: audio.appendingPathComponent("junk.bin"))
    try Data(count: 10).write(to: audio.appendingPathComponent(".x.wav.partial"))

    let found = try voicenotes(["doctor", "--json"], library: library)
    #expect(found.status == 1)
    let report = try JSONSerialization.jsonObject(with: Data(found.standardOutput.utf8)) as? [String: Any]
    let kinds = ((report?["problems"] as? [[String: Any]]) ?? []).compactMap { $0["kind"] as? String }.sorted()
    #expect(kinds == ["missingAudio", "orphanedAudio", "orphanedAudio", "partialCopy"], "\(kinds)")

    let repaired = try voicenotes(["doctor", "--repair"], library: library)
    #expect(repaired.status == 1, "the lost recording cannot be mended: \(repaired.standardOutput)")
    #expect(repaired.standardOutput.contains("repaired: audio/found.m4a"), "\(repaired.standardOutput)")
    #expect(repaired.standardOutput.contains("junk.bin"), "\(repaired.standardOutput)")
    // Nothing was deleted or changed: the adopted file is the original's bytes, the junk stays.
    #expect(
      try Data(contentsOf: orphan) == Data(contentsOf: Fixtures.root.appendingPathComponent("Samples/team-sync.m4a")))
    #expect(FileManager.default.fileExists(atPath: audio.appendingPathComponent("junk.bin").path))
    let listed = try voicenotes(["list", "--json"], library: library)
    let notes = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]]
    #expect(notes?.count == 3)
    #expect(notes?.contains { $0["originalFileName"] as? String == "found.m4a" } == true)
  }

  @Test("a named library that is not there: reading commands say so and create nothing; import starts it")
  func missingLibrary() throws {
    let folder = Fixtures.temporaryFolder("missing-library")
    defer { try? FileManager.default.removeItem(at: folder) }
    let typo = folder.appendingPathComponent("libary")
    let commands = [
      ["list"], ["show", "3f2a"], ["search", "milk"], ["tasks"], ["export", "3f2a"], ["rename", "3f2a", "Milk"],
      ["delete", "--yes", "3f2a"], ["retry", "3f2a"], ["resume"], ["doctor"], ["done", "3f2a.1"],
    ]
    for arguments in commands {
      let run = try voicenotes(arguments, library: typo)
      expectOneLine(run, "\(arguments)")
      #expect(run.standardError.contains("there is no library at \(typo.path)"), "\(arguments): \(run.standardError)")
    }
    let named = try Program.run([Fixtures.program.path, "list"], environment: ["VOICENOTES_LIBRARY": typo.path])
    #expect(named.status == 1 && named.standardError.contains("there is no library at"), "\(named.standardError)")
    #expect(!FileManager.default.fileExists(atPath: typo.path), "a reading command made the library")
    // A folder that exists but holds no library (a path mistyped onto another folder) is left alone.
    let other = folder.appendingPathComponent("Documents")
    try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
    let listedOther = try voicenotes(["list"], library: other)
    #expect(listedOther.status == 1 && listedOther.standardError.contains("there is no library at \(other.path)"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: other.path).isEmpty)
    let file = folder.appendingPathComponent("notes.txt")
    try Data("not a library".utf8).write(to: file)
    let listedFile = try voicenotes(["list"], library: file)
    #expect(listedFile.status == 1 && listedFile.standardError.contains("is a file"), "\(listedFile.standardError)")

    // The default library is made on first use, so the first `list` shows the empty state.
    let first = try Program.run(
      [Fixtures.program.path, "list"], environment: ["XDG_DATA_HOME": folder.appendingPathComponent("data").path],
      removing: ["VOICENOTES_LIBRARY"])
    #expect(first.status == 0 && first.standardOutput.contains("No notes yet"), "\(first.standardError)")

    #expect(try voicenotes(["import", "--no-process", "--quiet", sample.path], library: typo).status == 0)
    let listed = try voicenotes(["list", "--json"], library: typo)
    #expect(listed.status == 0 && listed.standardOutput.contains("groceries.opus"), "\(listed.standardError)")
  }

  @Test("a library path that is a file, unusable vocabulary terms and a huge query get one line each")
  func badInput() throws {
    let folder = Fixtures.temporaryFolder("bad-input")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("a-file")
    try Data("x".utf8).write(to: file)
    let asFile = try voicenotes(["import", "--no-process", sample.path], library: file)
    expectOneLine(asFile)
    #expect(asFile.standardError.contains("is a file, not a library folder"), "\(asFile.standardError)")
    #expect(try Data(contentsOf: file) == Data("x".utf8))

    let library = folder.appendingPathComponent("library")
    #expect(try voicenotes(["vocabulary", "add", "Grafana"], library: library).status == 0)
    for term in ["<class>", "\"quoted\"", "back\\slash", ";", "😀", "x", String(repeating: "a", count: 20_000)] {
      let refused = try voicenotes(["vocabulary", "add", "Priya", term], library: library)
      expectOneLine(refused)
      #expect(refused.standardError.contains("cannot be a vocabulary term"), "\(refused.standardError)")
    }
    // Refused terms add nothing, not even the good term beside them.
    #expect(try voicenotes(["vocabulary", "list"], library: library).standardOutput == "Grafana\n")
    let accepted = try voicenotes(["vocabulary", "add", "C++", "O'Brien", "Wi-Fi", "東京", "naïve"], library: library)
    #expect(accepted.status == 0, "\(accepted.standardError)")

    let query = Array(repeating: "budget", count: 200).joined(separator: " ")
    expectOneLine(try voicenotes(["search", query], library: library))
  }

  @Test("a full disk: the import is refused whole, reading works, and the notes finish once there is room")
  func fullDisk() throws {
    let folder = Fixtures.temporaryFolder("full-disk")
    defer { try? FileManager.default.removeItem(at: folder) }
    let disk = folder.appendingPathComponent("disk")
    try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
    try mount(["-t", "tmpfs", "-o", "size=1m", "tmpfs", disk.path])
    defer { unmount(disk) }
    let library = disk.appendingPathComponent("library")
    #expect(try voicenotes(["import", "--no-process", "--quiet", sample.path], library: library).status == 0)
    // Fill what is left.
    let filler = disk.appendingPathComponent("filler")
    FileManager.default.createFile(atPath: filler.path, contents: nil)
    let handle = try FileHandle(forWritingTo: filler)
    while (try? handle.write(contentsOf: Data(count: 65536))) != nil {}
    try? handle.write(contentsOf: Data(count: 4096))
    try? handle.write(contentsOf: Data(count: 512))
    try handle.close()

    let imported = try voicenotes(
      ["import", "--no-process", "--again", Fixtures.root.appendingPathComponent("Samples/team-sync.m4a").path],
      library: library)
    expectOneLine(imported)
    #expect(imported.standardError.contains("No space left on device"), "\(imported.standardError)")
    let listed = try voicenotes(["list", "--json"], library: library)
    #expect(listed.status == 0, "reading works on a full disk: \(listed.standardError)")
    let notes = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]]
    #expect(notes?.count == 1)
    let audio = library.appendingPathComponent("audio")
    let files = try FileManager.default.contentsOfDirectory(atPath: audio.path)
    #expect(files.count == 1, "no partial copy is left: \(files)")
    try FileManager.default.removeItem(at: filler)
    #expect(try voicenotes(["doctor"], library: library).status == 0)
  }

  @Test("a read-only library: list, show, search and export work; a change says why in one line")
  func readOnlyLibrary() throws {
    let folder = Fixtures.temporaryFolder("read-only")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let imported = try voicenotes(["import", "--no-process", "--quiet", sample.path], library: library)
    let id = imported.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    try #require(imported.status == 0 && !id.isEmpty)
    // Written before this version: no log files beside the database.
    for name in ["notes.sqlite-wal", "notes.sqlite-shm"] {
      try? FileManager.default.removeItem(at: library.appendingPathComponent(name))
    }
    let view = folder.appendingPathComponent("view")
    try FileManager.default.createDirectory(at: view, withIntermediateDirectories: true)
    try mount(["--bind", library.path, view.path])
    defer { unmount(view) }
    try mount(["-o", "remount,ro,bind", view.path])

    let listed = try voicenotes(["list"], library: view)
    #expect(listed.status == 0, "\(listed.standardError)")
    #expect(listed.standardOutput.contains(String(id.prefix(8))), "\(listed.standardOutput)")
    #expect(try voicenotes(["show", id], library: view).status == 0)
    #expect(try voicenotes(["search", "groceries"], library: view).status <= 1)
    #expect(try voicenotes(["export", id, "--format", "md"], library: view).status == 0)
    let renamed = try voicenotes(["rename", id, "Shopping"], library: view)
    expectOneLine(renamed)
    #expect(renamed.standardError.contains("read-only"), "\(renamed.standardError)")
  }

  @Test("four processes importing the same recording at once make one note, and all print its id")
  func concurrentImportsOfOneFile() throws {
    let folder = Fixtures.temporaryFolder("same-import")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    _ = try NoteStore(library: library)  // made before the processes start, as an earlier import would
    let ids = Mutex<[String]>([])
    let done = DispatchGroup()
    for _ in 0..<4 {
      done.enter()
      Thread { [self] in
        let run = try? voicenotes(["import", "--no-process", "--quiet", sample.path], library: library)
        ids.withLock { $0.append(run?.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) ?? "failed") }
        done.leave()
      }.start()
    }
    #expect(done.wait(timeout: .now() + 120) == .success)
    let printed = ids.withLock { $0 }
    #expect(Set(printed).count == 1 && printed.count == 4, "\(printed)")
    let listed = try voicenotes(["list", "--json"], library: library)
    let notes = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]]
    #expect(notes?.count == 1, "\(listed.standardOutput)")
  }

  @Test("a process that waits for the library says so, and a kill while it waits loses nothing")
  func waitingForTheLibrary() throws {
    let folder = Fixtures.temporaryFolder("waiting")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    _ = try NoteStore(library: library)  // made before the processes start, as an earlier import would
    // Another process is working on the library: this test holds its lock.
    let lock = open(library.appendingPathComponent(".processing.lock").path, O_CREAT | O_RDWR, 0o644)
    try #require(lock >= 0 && flock(lock, LOCK_EX) == 0)
    defer { close(lock) }

    let process = Process()
    process.executableURL = Fixtures.program
    process.arguments = ["import", sample.path, "--library", library.path]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.runWithDefaultSignals()
    var text = ""
    let deadline = Date(timeIntervalSinceNow: 60)
    let reader = errors.fileHandleForReading
    while Date() < deadline, !text.contains("waiting for another voicenotes process") {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(text.contains("waiting for another voicenotes process"), "\(text)")
    let listed = try voicenotes(["list", "--json"], library: library)
    let notes = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]]
    #expect(notes?.count == 1, "the note was saved before it waited")
  }
}
