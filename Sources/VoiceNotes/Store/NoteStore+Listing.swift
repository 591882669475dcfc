import Foundation

extension NoteStore {
  /// ``noteColumns`` with the transcript and action items left out: what lists and events need,
  /// without decoding every word's timing.
  static let listingColumns = noteColumns.replacingOccurrences(of: "transcript,", with: "NULL,")
    .replacingOccurrences(of: "action_items,", with: "'[]',")

  /// One page of notes, newest first, after `cursor` (from the start when nil), without their
  /// transcripts and action items. At most `limit` notes (1...500).
  ///
  /// Keyset paging on the date index, so a page deep in a library of 100,000 notes costs the same
  /// as the first.
  public func page(after cursor: NotePage.Cursor? = nil, limit: Int = 50) throws -> NotePage {
    let limit = min(max(limit, 1), 500)
    var sql = "SELECT \(Self.listingColumns), number FROM notes"
    var values: [SQLiteDatabase.Value] = []
    if let cursor {
      sql += " WHERE (created_at, number) < (?, ?)"
      values = [.real(cursor.createdAt), .integer(cursor.number)]
    }
    sql += " ORDER BY created_at DESC, number DESC LIMIT ?"
    values.append(.integer(Int64(limit + 1)))
    let rows = try database.query(sql, values) { row in
      (note: try decodeNote(row), number: row.int(14))
    }
    let shown = rows.prefix(limit)
    let next =
      rows.count > limit
      ? shown.last.map {
        NotePage.Cursor(createdAt: $0.note.createdAt.timeIntervalSinceReferenceDate, number: $0.number)
      } : nil
    return NotePage(notes: shown.map(\.note), next: next, total: try cachedCount())
  }

  /// How many notes there are, counted again only when the database has changed (a count walks
  /// an index of every note: milliseconds at 100,000).
  func cachedCount() throws -> Int {
    let key = (try externalChangeCounter(), database.totalChanges)
    if let countCache, countCache.version == key.0, countCache.changes == key.1 { return countCache.count }
    let total = try count()
    countCache = (key.0, key.1, total)
    return total
  }

  /// The note with this identifier without its transcript or action items, or nil: for lists
  /// and events.
  public func summary(id: String) throws -> VoiceNote? {
    try database.query("SELECT \(Self.listingColumns) FROM notes WHERE id = ?", [.text(id)], decodeNote).first
  }

  /// Notes recorded from `start` up to (not including) `end`, oldest first, without their
  /// transcripts; at most `limit` of them.
  public func notes(recordedFrom start: Date, to end: Date, limit: Int = 50) throws -> [VoiceNote] {
    try database.query(
      "SELECT \(Self.listingColumns) FROM notes WHERE created_at >= ? AND created_at < ? ORDER BY created_at LIMIT ?",
      [
        .real(start.timeIntervalSinceReferenceDate), .real(end.timeIntervalSinceReferenceDate),
        .integer(Int64(max(limit, 1))),
      ], decodeNote)
  }

  /// A number that changes whenever another connection (another process) commits a change to the
  /// database; this connection's own writes leave it alone.
  public func externalChangeCounter() throws -> Int64 {
    try database.integer("PRAGMA data_version") ?? 0
  }

  /// Whether a note was made from a file of this name (how sample notes are recognised).
  public func hasNote(originalFileName: String) throws -> Bool {
    try database.integer("SELECT EXISTS (SELECT 1 FROM notes WHERE original_file = ?)", [.text(originalFileName)]) == 1
  }
}
