import AudioIO
import Foundation

/// A library's health: the database's integrity, and whether every note has its recording and
/// every recording a note (``check(_:repair:)``), with a safe repair.
///
/// The repair never deletes a recording: an orphaned recording becomes a note again, an empty
/// database beside recordings is moved aside (kept, renamed) and the recordings are made into
/// notes of a new one. What it cannot mend (a damaged database, a note whose recording is gone)
/// it says how to mend.
public struct LibraryCheck: Sendable, Equatable {
  /// One thing found wrong.
  public struct Problem: Sendable, Equatable {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Codable {
      /// SQLite's integrity check, or the search index's, found damage.
      case damagedDatabase
      /// The database file was empty although the audio folder held recordings.
      case emptyDatabase
      /// A note whose recording is not in the audio folder.
      case missingAudio
      /// A recording in the audio folder that no note refers to.
      case orphanedAudio
      /// A partial copy left by an import that was interrupted.
      case partialCopy
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// What it is about: the note's id or the file's name.
    public var subject: String
    /// What was found and what to do, in one line.
    public var detail: String
    /// Whether the repair mended it.
    public var repaired: Bool
  }

  /// Everything found, in the order it was found.
  public var problems: [Problem] = []
  /// How many notes the library holds (after any repair).
  public var notes = 0
  /// How many recordings the audio folder holds.
  public var recordings = 0

  /// Whether anything is still wrong (found and not repaired).
  public var isHealthy: Bool { problems.allSatisfy(\.repaired) }

  /// Checks the library `configuration` names and, with `repair`, mends what can be mended
  /// without losing anything.
  public static func check(_ configuration: LibraryConfiguration, repair: Bool) async throws -> LibraryCheck {
    var result = LibraryCheck()
    let folder = configuration.folder
    let audio = folder.appendingPathComponent("audio", isDirectory: true)
    let database = folder.appendingPathComponent("notes.sqlite")
    if let size = (try? FileManager.default.attributesOfItem(atPath: database.path)[.size] as? NSNumber)?.intValue,
      size == 0, case let count = NoteStore.recordingCount(in: audio), count > 0
    {
      var problem = Problem(
        kind: .emptyDatabase, subject: database.lastPathComponent,
        detail: "the database is empty beside \(count) recordings; `doctor --repair` makes a note of each again",
        repaired: false)
      if repair {
        let kept = try Self.moveAside(database)
        problem.detail = "the database was empty beside \(count) recordings; it was kept as \(kept.lastPathComponent)"
        problem.repaired = true
      }
      result.problems.append(problem)
      // Until it is repaired the library cannot be opened, so there is nothing more to look at.
      guard repair else {
        result.recordings = count
        return result
      }
    }
    let store = try NoteStore(library: folder)
    for line in try await store.integrityProblems() {
      result.problems.append(
        Problem(
          kind: .damagedDatabase, subject: database.lastPathComponent,
          detail: "\(line); restore notes.sqlite from a backup (the recordings in audio/ are untouched)",
          repaired: false))
    }

    let referenced = try await store.audioFileNames()
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: audio.path)) ?? []).sorted()
    result.recordings = names.filter { !$0.hasPrefix(".") }.count
    for (id, fileName) in referenced.sorted(by: { $0.key < $1.key }) where !names.contains(fileName) {
      result.problems.append(
        Problem(
          kind: .missingAudio, subject: id,
          detail: "note \(id.prefix(8)) has lost its recording audio/\(fileName); restore the file from a backup, "
            + "or delete the note with `voicenotes delete \(id.prefix(8))`",
          repaired: false))
    }
    let pipeline = NotePipeline(store: store)
    let known = Set(referenced.values)
    for name in names where !known.contains(name) {
      if name.hasPrefix(".") {
        guard name.hasSuffix(".partial") else { continue }
        result.problems.append(
          Problem(
            kind: .partialCopy, subject: name,
            detail: "audio/\(name) is an incomplete copy from an interrupted import (the original was not touched); "
              + "it can be deleted",
            repaired: false))
        continue
      }
      var problem = Problem(
        kind: .orphanedAudio, subject: name,
        detail: "audio/\(name) is a recording without a note; `doctor --repair` makes it a note again",
        repaired: false)
      if repair {
        do {
          let note = try await pipeline.adoptAudio(named: name)
          problem.detail = "audio/\(name) had no note; it is note \(note.id.prefix(8)) again, ready to transcribe"
          problem.repaired = true
        } catch {
          let reason = FailureText.describe(error)
          problem.detail =
            "audio/\(name) has no note and is not audio that can be read (\(reason)); it was left as it is"
        }
      }
      result.problems.append(problem)
    }
    result.notes = try await store.count()
    return result
  }

  /// Renames `file` to a name that says when and why it was set aside; returns the new place.
  private static func moveAside(_ file: URL) throws -> URL {
    let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
    let kept = file.deletingLastPathComponent().appendingPathComponent("\(file.lastPathComponent).empty-\(stamp)")
    do {
      try FileManager.default.moveItem(at: file, to: kept)
      for suffix in ["-wal", "-shm"] {
        let companion = URL(fileURLWithPath: file.path + suffix)
        if FileManager.default.fileExists(atPath: companion.path) {
          try FileManager.default.moveItem(at: companion, to: URL(fileURLWithPath: kept.path + suffix))
        }
      }
    } catch {
      throw NoteStoreError.fileSystem(
        path: file.path, operation: "move the empty database aside", reason: FileSystemFailure.reason(for: error))
    }
    return kept
  }
}
