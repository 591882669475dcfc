import AudioIO
import Foundation
import ModelSupport

/// The note library: one folder holding `notes.sqlite` and the recordings in `audio/`.
///
/// Notes are rows in SQLite (WAL mode, so other processes can read while one writes) with a
/// full-text index kept in step in the same transaction. Every write is atomic; several processes
/// may open the same library, and a writer waits for another rather than failing.
///
/// ```swift
/// let store = try NoteStore(library: NoteStore.defaultLibrary)
/// try await store.save(note)
/// let note = try await store.resolve("3f2a")
/// ```
public actor NoteStore {
  /// The library folder.
  public nonisolated let library: URL
  /// The folder inside the library that holds the recordings (`audio/`).
  public nonisolated var audioFolder: URL { library.appendingPathComponent("audio", isDirectory: true) }
  /// The database file (`notes.sqlite`).
  public nonisolated var databaseURL: URL { library.appendingPathComponent("notes.sqlite") }

  /// The one connection; only this actor uses it.
  let database: SQLiteDatabase
  let encoder = JSONEncoder()
  let decoder = JSONDecoder()
  /// The last count of notes, and the database's state when it was taken.
  var countCache: (version: Int64, changes: Int64, count: Int)?

  /// `$XDG_DATA_HOME/voicenotes`, or `~/.local/share/voicenotes` when that is unset (or relative).
  public static var defaultLibrary: URL {
    EngineConfiguration.current.dataHome.appendingPathComponent("voicenotes", isDirectory: true)
  }

  /// Whether `folder` holds a library (its `notes.sqlite`, its `audio/` folder, which `doctor
  /// --repair` can make notes of again, a personal vocabulary or its settings), found without
  /// opening or creating anything.
  public static func isLibrary(_ folder: URL) -> Bool {
    let marks = [
      folder.appendingPathComponent("notes.sqlite"), folder.appendingPathComponent("audio"),
      PersonalVocabulary.file(in: folder), LibraryConfiguration.settingsFile(in: folder),
    ]
    return marks.contains { FileManager.default.fileExists(atPath: $0.path) }
  }

  /// Opens the library at `library`, creating the folder, `audio/` and the database as needed and
  /// bringing an older database's schema up to date.
  ///
  /// A library on a read-only file system (or one this process may not write) opens for reading;
  /// writes then fail with a message that says so. An empty database beside recordings is refused
  /// (``NoteStoreError/emptyDatabase(path:recordings:)``) rather than taken for a new library.
  public init(library: URL) throws {
    self.library = library
    let audio = library.appendingPathComponent("audio", isDirectory: true)
    let database = library.appendingPathComponent("notes.sqlite")
    let manager = FileManager.default
    var isFolder: ObjCBool = false
    if manager.fileExists(atPath: library.path, isDirectory: &isFolder), !isFolder.boolValue {
      throw NoteStoreError.notAFolder(path: library.path)
    }
    let writable = !manager.fileExists(atPath: library.path) || access(library.path, W_OK) == 0
    if writable {
      do {
        try manager.createDirectory(at: audio, withIntermediateDirectories: true)
      } catch {
        throw NoteStoreError.fileSystem(
          path: audio.path, operation: "create the library folder", reason: FileSystemFailure.reason(for: error))
      }
    }
    let size = (try? manager.attributesOfItem(atPath: database.path)[.size] as? NSNumber)?.intValue
    if size == 0, case let recordings = Self.recordingCount(in: audio), recordings > 0 {
      throw NoteStoreError.emptyDatabase(path: database.path, recordings: recordings)
    }
    guard writable || size != nil else {
      throw NoteStoreError.fileSystem(
        path: library.path, operation: "create the library", reason: "the folder cannot be written")
    }
    if writable {
      self.database = try SQLiteDatabase(path: database.path)
      try self.database.useWriteAheadLog()
    } else {
      // Without the log's index SQLite cannot open a WAL database where it may not create one;
      // with nothing able to write here, nothing can change it while it is open either.
      let logged = manager.fileExists(atPath: database.path + "-shm")
      self.database = try SQLiteDatabase(path: database.path, access: logged ? .readOnly : .immutable)
    }
    try Self.migrate(self.database)
  }

  /// How many recordings (files not hidden) the audio folder holds.
  static func recordingCount(in audio: URL) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: audio.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.count
  }

  /// Whether writes to this library fail because it may only be read.
  public var isReadOnly: Bool { database.isReadOnly }

  // MARK: - Reading

  /// The note with exactly this identifier, or nil.
  public func note(id: String) throws -> VoiceNote? {
    try withSpeakers(
      database.query("SELECT \(Self.noteColumns) FROM notes WHERE id = ?", [.text(id)], decodeNote)
    ).first
  }

  /// The one note whose identifier starts with `idOrPrefix` (ignoring case and surrounding spaces).
  ///
  /// Throws ``NoteStoreError/noteNotFound(_:)`` when none does and ``NoteStoreError/ambiguous(_:_:)``
  /// when several do (unless one is an exact match).
  public func resolve(_ idOrPrefix: String) throws -> VoiceNote {
    let prefix = idOrPrefix.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    guard !prefix.isEmpty else { throw NoteStoreError.noteNotFound(idOrPrefix) }
    if let note = try note(id: prefix) { return note }
    let matches = try database.query(
      "SELECT id FROM notes WHERE id >= ?1 AND id < ?2 ORDER BY id", Self.prefixRange(prefix)
    ) { $0.text(0) ?? "" }
    switch matches.count {
    case 0: throw NoteStoreError.noteNotFound(prefix)
    case 1:
      guard let note = try note(id: matches[0]) else { throw NoteStoreError.noteNotFound(prefix) }
      return note
    default: throw NoteStoreError.ambiguous(prefix, matches)
    }
  }

  /// Every note, newest first.
  public func allNotes() throws -> [VoiceNote] {
    try withSpeakers(
      database.query("SELECT \(Self.noteColumns) FROM notes ORDER BY created_at DESC, number DESC", [], decodeNote))
  }

  /// Notes the pipeline should pick up by itself (``ProcessingState/needsWork``), oldest first.
  public func notesNeedingWork() throws -> [VoiceNote] {
    try database.query(
      """
      SELECT \(Self.noteColumns) FROM notes WHERE stage <> 'done' AND last_error IS NULL
      ORDER BY created_at, number
      """, [], decodeNote
    ).map { note in
      var note = note
      note.speakers = try speakers(ofNote: note.id)
      return note
    }
  }

  /// What SQLite's integrity check and the search index's own check find wrong (nothing when
  /// the database is sound).
  public func integrityProblems() throws -> [String] {
    let found = try database.query("PRAGMA integrity_check", []) { $0.text(0) ?? "" }.filter { $0 != "ok" }
    // The index's check is written as an insert, which a read-only connection may not run.
    guard !database.isReadOnly else { return found }
    do {
      try database.run("INSERT INTO note_search (note_search) VALUES ('integrity-check')")
    } catch let error as NoteStoreError {
      return found + ["the search index is damaged (\(error.errorDescription ?? "\(error)"))"]
    }
    return found
  }

  /// Every note's recording: the note's identifier and the file's name in the audio folder.
  public func audioFileNames() throws -> [String: String] {
    let rows = try database.query("SELECT id, audio_file FROM notes", []) { ($0.text(0) ?? "", $0.text(1) ?? "") }
    return Dictionary(rows, uniquingKeysWith: { first, _ in first })
  }

  /// How many notes the library holds.
  public func count() throws -> Int {
    Int(try database.integer("SELECT count(*) FROM notes") ?? 0)
  }

  // MARK: - Writing

  /// Inserts `note`, or replaces the stored note with its identifier, together with its search
  /// entry, in one transaction.
  public func save(_ note: VoiceNote) throws {
    try database.transaction { try write(note) }
  }

  /// Replaces the stored note with `note`'s identifier, in one transaction, unless it has been
  /// deleted; returns whether it was saved.
  public func saveIfPresent(_ note: VoiceNote) throws -> Bool {
    try database.transaction { () throws -> Bool in
      guard try database.integer("SELECT EXISTS (SELECT 1 FROM notes WHERE id = ?)", [.text(note.id)]) == 1 else {
        return false
      }
      try write(note)
      return true
    }
  }

  /// Deletes the note with this identifier and then its audio file.
  ///
  /// Throws ``NoteStoreError/noteNotFound(_:)`` if there is no such note.
  public func delete(id: String) throws {
    let audioFile = try database.transaction { () throws -> String in
      guard
        let row = try database.query(
          "SELECT number, audio_file FROM notes WHERE id = ?", [.text(id)],
          {
            ($0.int(0), $0.text(1) ?? "")
          }
        ).first
      else { throw NoteStoreError.noteNotFound(id) }
      try database.run("DELETE FROM note_search WHERE rowid = ?", [.integer(row.0)])
      try database.run("DELETE FROM notes WHERE number = ?", [.integer(row.0)])
      try database.run("DELETE FROM note_speakers WHERE note_id = ?", [.text(id)])
      try database.run("DELETE FROM note_passages WHERE note_id = ?", [.text(id)])
      try database.run("DELETE FROM note_vectors WHERE note_id = ?", [.text(id)])
      return row.1
    }
    // Only a plain file name inside audio/ is ever removed.
    guard !audioFile.isEmpty, !audioFile.contains("/"), audioFile != ".", audioFile != ".." else { return }
    let url = audioFolder.appendingPathComponent(audioFile)
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    do {
      try FileManager.default.removeItem(at: url)
    } catch {
      throw NoteStoreError.fileSystem(path: url.path, operation: "remove the audio file", reason: Self.reason(error))
    }
  }

  /// Writes one note and its search entry; the caller holds the transaction.
  func write(_ note: VoiceNote) throws {
    let id = note.id
    let values: [SQLiteDatabase.Value] = [
      .text(id), .real(note.createdAt.timeIntervalSinceReferenceDate), .real(note.duration),
      .text(note.audioFileName), .text(note.originalFileName), .text(note.title),
      .integer(note.hasCustomTitle ? 1 : 0), try note.transcript.map { .text(try jsonText($0, of: id)) } ?? .null,
      .optional(note.summary), .text(try jsonText(note.tags, of: id)), .text(try jsonText(note.people, of: id)),
      .text(try jsonText(note.actionItems, of: id)), .text(note.processing.stage.rawValue),
      .optional(note.processing.lastError),
    ]
    guard
      let number = try database.integer(
        """
        INSERT INTO notes (\(Self.noteColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET
          created_at = excluded.created_at, duration = excluded.duration, audio_file = excluded.audio_file,
          original_file = excluded.original_file, title = excluded.title, custom_title = excluded.custom_title,
          transcript = excluded.transcript, summary = excluded.summary, tags = excluded.tags,
          people = excluded.people, action_items = excluded.action_items, stage = excluded.stage,
          last_error = excluded.last_error
        RETURNING number
        """, values)
    else { throw NoteStoreError.corruptNote(id: note.id, path: database.path, reason: "no row number after saving") }
    try writeSpeakers(of: note)
    try database.run("DELETE FROM note_search WHERE rowid = ?", [.integer(number)])
    let fields = Self.searchFields(of: note)
    try database.run(
      "INSERT INTO note_search (rowid, title, transcript, summary, tags, people, action_items) VALUES (?, ?, ?, ?, ?, ?, ?)",
      [.integer(number)] + fields.map { .text($0) })
    try Self.addSearchTerms(Set(fields.flatMap(FullTextQuery.foldedWords)), to: database)
  }

  // MARK: - Rows

  /// The columns ``decodeNote(_:)`` reads, in order.
  static let noteColumns =
    "id, created_at, duration, audio_file, original_file, title, custom_title, transcript, summary, tags, people, "
    + "action_items, stage, last_error"

  /// A note from a row of ``noteColumns``.
  func decodeNote(_ row: SQLiteDatabase.Row) throws -> VoiceNote {
    let id = row.text(0) ?? ""
    do {
      var note = VoiceNote(
        id: id, createdAt: Date(timeIntervalSinceReferenceDate: row.double(1)), duration: row.double(2),
        audioFileName: row.text(3) ?? "", originalFileName: row.text(4) ?? "")
      note.title = row.text(5) ?? ""
      note.hasCustomTitle = row.int(6) != 0
      note.transcript = try row.data(7).map { try decoder.decode(Transcript.self, from: $0) }
      note.summary = row.text(8)
      note.tags = try decodeStrings(row.data(9))
      note.people = try decodeStrings(row.data(10))
      note.actionItems = try decodeActionItems(row.data(11), noteID: id)
      guard let stage = ProcessingState.Stage(rawValue: row.text(12) ?? "") else {
        throw NoteStoreError.corruptNote(
          id: id, path: database.path, reason: "unknown processing stage '\(row.text(12) ?? "")'")
      }
      note.processing = ProcessingState(stage: stage, lastError: row.text(13))
      return note
    } catch let error as NoteStoreError {
      throw error
    } catch {
      throw NoteStoreError.corruptNote(id: id, path: database.path, reason: Self.reason(error))
    }
  }

  /// A list of strings from its JSON column (tags, people).
  func decodeStrings(_ data: Data?) throws -> [String] {
    guard let data else { return [] }
    return try StringListColumn.decode(data) ?? decoder.decode([String].self, from: data)
  }

  /// A note's action items from their JSON column.
  func decodeActionItems(_ data: Data?, noteID: String) throws -> [NoteActionItem] {
    guard let data, data != Data("[]".utf8) else { return [] }
    do {
      return try decoder.decode([NoteActionItem].self, from: data)
    } catch {
      throw NoteStoreError.corruptNote(id: noteID, path: database.path, reason: Self.reason(error))
    }
  }

  /// `value`, a part of the note `noteID`, as JSON text.
  func jsonText<T: Encodable>(_ value: T, of noteID: String) throws -> String {
    do {
      return String(decoding: try encoder.encode(value), as: UTF8.self)
    } catch {
      throw NoteStoreError.invalidNote(id: noteID, reason: Self.reason(error))
    }
  }

  /// The text of each full-text column for `note`, in ``SearchScope/fields`` order: title,
  /// transcript, summary, tags, people (the note's and its action items'), action items (each task
  /// with its people).
  static func searchFields(of note: VoiceNote) -> [String] {
    var people: [String] = []
    for person in note.people + note.actionItems.flatMap(\.people) where !people.contains(person) {
      people.append(person)
    }
    let actionItems = note.actionItems.map { item in
      item.people.isEmpty ? item.task : "\(item.task) (\(item.people.joined(separator: ", ")))"
    }
    return [
      note.title, note.transcript?.text ?? "", note.summary ?? "", note.tags.joined(separator: ", "),
      people.joined(separator: ", "), actionItems.joined(separator: "; "),
    ]
  }

  /// Bounds for `id >= ?1 AND id < ?2`: every text that starts with `prefix` (identifiers are ASCII).
  static func prefixRange(_ prefix: String) -> [SQLiteDatabase.Value] {
    [.text(prefix), .text(prefix + "\u{10FFFF}")]
  }

  /// A short reason for a Foundation or decoding error.
  static func reason(_ error: any Error) -> String {
    if let decoding = error as? DecodingError {
      switch decoding {
      case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
        .valueNotFound(_, let context):
        return context.debugDescription
      @unknown default:
        return String(describing: decoding)
      }
    }
    return FileSystemFailure.reason(for: error)
  }
}
