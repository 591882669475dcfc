import Foundation

/// Why the note library could not do what was asked. Each message is one line that says what went
/// wrong, where, and what to do.
public enum NoteStoreError: Error, LocalizedError, Equatable, Sendable {
  /// SQLite refused an operation: its result code, its message, the database file and what the
  /// store was doing at the time.
  case sqlite(code: Int32, message: String, path: String, operation: String)
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

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .sqlite(let code, let message, let path, let operation):
      "\(path): \(operation) failed: \(message) (SQLite code \(code)); \(Self.advice(forSQLiteCode: code))"
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
    }
  }

  /// What to try for the SQLite result codes a person can act on.
  private static func advice(forSQLiteCode code: Int32) -> String {
    switch code & 0xFF {
    case 5, 6: "another voicenotes process is using the library; wait for it and try again"
    case 11, 26: "the database file is damaged or not a voicenotes library; restore it from a backup"
    case 13: "the disk is full; free some space and try again"
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
