import Foundation

/// Why the note library could not do what was asked. Each message is one line that says what went
/// wrong, where, and what to do.
public enum NoteStoreError: Error, LocalizedError, Equatable, Sendable {
  /// SQLite refused an operation: its result code, its message, the database file, what the
  /// store was doing at the time, and the system's `errno` behind an I/O failure (0 when none).
  case sqlite(code: Int32, message: String, path: String, operation: String, systemError: Int32)
  /// The library path names something that is not a folder.
  case notAFolder(path: String)
  /// The database file is empty although the audio folder holds recordings: the notes were lost
  /// (a truncated file), and opening it as a new library would orphan the recordings.
  case emptyDatabase(path: String, recordings: Int)
  /// A file or folder in the library could not be created, read or removed.
  case fileSystem(path: String, operation: String, reason: String)
  /// The database was written by a newer version of voicenotes than this one.
  case newerSchema(found: Int, supported: Int, path: String)
  /// A stored note could not be decoded (a damaged row).
  case corruptNote(id: String, path: String, reason: String)
  /// A note could not be written (a value JSON cannot hold, such as a NaN time).
  case invalidNote(id: String, reason: String)
  /// No note's identifier starts with the prefix.
  case noteNotFound(String)
  /// More than one note's identifier starts with the prefix; the candidates' identifiers.
  case ambiguous(String, [String])
  /// No action item's identifier starts with the prefix.
  case actionItemNotFound(String)
  /// More than one action item's identifier starts with the prefix; the candidates' identifiers.
  case ambiguousActionItem(String, [String])
  /// The search query holds nothing but spaces.
  case emptyQuery
  /// The search query is longer than anyone types: its characters and words.
  case queryTooLong(characters: Int, words: Int)

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .sqlite(let code, let message, let path, let operation, let systemError):
      Self.describe(code: code, message: message, path: path, operation: operation, systemError: systemError)
    case .notAFolder(let path):
      "\(path) is a file, not a library folder; pass a folder (a new one is created) with --library"
    case .emptyDatabase(let path, let recordings):
      "\(path) is empty but the library holds \(recordings) recording\(recordings == 1 ? "" : "s"): "
        + "its notes were lost; restore the file from a backup, or run `voicenotes doctor --repair` "
        + "to make a note of each recording again"
    case .fileSystem(let path, let operation, let reason):
      "\(path): could not \(operation) (\(reason)); check the path, its permissions and free space"
    case .newerSchema(let found, let supported, let path):
      "\(path): the library has schema version \(found) but this voicenotes understands up to \(supported); "
        + "update voicenotes"
    case .corruptNote(let id, let path, let reason):
      "\(path): note \(id) is damaged and cannot be read (\(reason)); delete it with `voicenotes delete \(id)`"
    case .invalidNote(let id, let reason):
      "note \(id) cannot be saved (\(reason)); this is a bug, please report it with this message"
    case .noteNotFound(let prefix):
      "no note starts with '\(prefix)'; run `voicenotes list` to see the notes and their ids"
    case .ambiguous(let prefix, let candidates):
      "'\(prefix)' matches \(candidates.count) notes (\(Self.summarize(candidates, prefix: prefix))); "
        + "type more of the id"
    case .actionItemNotFound(let prefix):
      "no action item starts with '\(prefix)'; run `voicenotes tasks --all` to see the action items and their ids"
    case .ambiguousActionItem(let prefix, let candidates):
      "'\(prefix)' matches \(candidates.count) action items (\(Self.summarize(candidates, prefix: prefix))); "
        + "type more of the id"
    case .emptyQuery:
      "the search is empty; give at least one word to look for"
    case .queryTooLong(let characters, let words):
      "the search has \(characters) characters in \(words) words; search for at most "
        + "\(FullTextQuery.maximumWords) words and \(FullTextQuery.maximumLength) characters"
    }
  }

  /// Whether the store failed because the disk (or the file size limit) left no room.
  public var isOutOfSpace: Bool {
    guard case .sqlite(let code, _, _, _, let systemError) = self else { return false }
    return [ENOSPC, EDQUOT, EFBIG].contains(Self.cause(code: code, systemError: systemError))
  }

  /// Whether the store failed because the library may only be read.
  public var isReadOnly: Bool {
    guard case .sqlite(let code, _, _, _, let systemError) = self else { return false }
    return code & 0xFF == 8 || [EROFS, EACCES, EPERM].contains(Self.cause(code: code, systemError: systemError))
  }

  /// The system's `errno` behind a failure: the one SQLite recorded, or `ENOSPC` for SQLite's own
  /// "database or disk is full" (which comes without one); 0 when there is none.
  private static func cause(code: Int32, systemError: Int32) -> Int32 {
    systemError != 0 ? systemError : (code & 0xFF == 13 ? ENOSPC : 0)
  }

  /// SQLite's failure in words, named by its cause when the system said what it was.
  private static func describe(code: Int32, message: String, path: String, operation: String, systemError: Int32)
    -> String
  {
    let number = Self.cause(code: code, systemError: systemError)
    let cause = String(cString: strerror(number))
    switch number {
    case ENOSPC, EDQUOT:
      return "\(path): \(operation) failed: the disk is full (\(cause)); free some space and try again "
        + "(nothing already saved is lost)"
    case EFBIG:
      return "\(path): \(operation) failed: a file grew past the size limit (\(cause)); "
        + "raise the limit (`ulimit -f`) or free some space and try again (nothing already saved is lost)"
    case EROFS, EACCES, EPERM:
      return "\(path): \(operation) failed: the library cannot be written (\(cause)); "
        + "notes can be read but not changed until the folder is writable"
    default:
      break
    }
    if code & 0xFF == 8 {
      return "\(path): \(operation) failed: the library is read-only; "
        + "notes can be read but not changed until the folder is writable"
    }
    let detail = systemError == 0 ? message : "\(message): \(cause)"
    return "\(path): \(operation) failed: \(detail) (SQLite code \(code)); \(advice(forSQLiteCode: code))"
  }

  /// What to try for the SQLite result codes a person can act on.
  private static func advice(forSQLiteCode code: Int32) -> String {
    switch code & 0xFF {
    case 5, 6: "another voicenotes process is using the library; wait for it and try again"
    case 11, 26: "the database file is damaged or not a voicenotes library; restore it from a backup"
    case 3, 8, 14, 23: "check that the library folder exists and is writable"
    default: "if it keeps happening, report it with this message"
    }
  }

  /// The first few candidates, each shortened to a few characters past the prefix.
  private static func summarize(_ candidates: [String], prefix: String) -> String {
    let length = max(8, prefix.count + 4)
    let shown = candidates.prefix(5).map { String($0.prefix(length)) }
    return shown.joined(separator: ", ") + (candidates.count > shown.count ? ", …" : "")
  }
}
