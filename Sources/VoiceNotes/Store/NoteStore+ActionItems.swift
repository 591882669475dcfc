import Foundation

extension NoteStore {
  /// Action items from every note, grouped by note, newest note first; within a note, in the
  /// note's order.
  ///
  /// - Parameters:
  ///   - includeCompleted: Whether ticked-off items are listed too (by default only open ones).
  ///   - person: Keeps only items whose people match, as search does: ignoring case and
  ///     diacritics, each word the start of a word of a name ("jo" finds "José Álvarez").
  ///
  /// Notes left with no items after filtering are left out.
  public func actionItems(includeCompleted: Bool = false, person: String? = nil) throws -> [ActionItemGroup] {
    var conditions = ["action_items <> '[]'"]
    var values: [SQLiteDatabase.Value] = []
    if !includeCompleted {
      conditions.append(
        "EXISTS (SELECT 1 FROM json_each(notes.action_items) WHERE json_extract(value, '$.isCompleted') = 0)")
    }
    var personQuery: FullTextQuery?
    if let person {
      let query = try FullTextQuery(person)
      guard !query.matchesNothing else { return [] }
      // The index narrows the notes to those naming the person; the items are then checked one by one.
      conditions.append("number IN (SELECT rowid FROM note_search WHERE note_search MATCH ?)")
      values.append(.text(try query.expression(in: .people, completions: completions)))
      personQuery = query
    }
    let rows = try database.query(
      """
      SELECT id, title, created_at, action_items FROM notes WHERE \(conditions.joined(separator: " AND "))
      ORDER BY created_at DESC, number DESC
      """, values
    ) { row in
      (id: row.text(0) ?? "", title: row.text(1) ?? "", createdAt: row.double(2), items: row.data(3))
    }
    return try rows.compactMap { row in
      let items = try decodeActionItems(row.items, noteID: row.id).filter { item in
        (includeCompleted || !item.isCompleted)
          && (personQuery.map { query in item.people.contains { query.matches($0) } } ?? true)
      }
      guard !items.isEmpty else { return nil }
      return ActionItemGroup(
        noteID: row.id, noteTitle: row.title, noteCreatedAt: Date(timeIntervalSinceReferenceDate: row.createdAt),
        items: items)
    }
  }

  /// Ticks (or unticks) the action item whose identifier starts with `idOrPrefix`, in whichever
  /// note holds it, and saves that note.
  ///
  /// Throws ``NoteStoreError/actionItemNotFound(_:)`` when no item's identifier starts with the
  /// prefix and ``NoteStoreError/ambiguousActionItem(_:_:)`` when several do (unless one is an
  /// exact match).
  ///
  /// - Returns: The note as saved, the item as it now is, and whether it changed (ticking a done
  ///   item changes nothing).
  @discardableResult
  public func setCompleted(
    _ completed: Bool, actionItem idOrPrefix: String
  ) throws -> (note: VoiceNote, item: NoteActionItem, changed: Bool) {
    let prefix = idOrPrefix.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    guard !prefix.isEmpty else { throw NoteStoreError.actionItemNotFound(idOrPrefix) }
    // Read, change and write under the write lock, so another process's change is never lost.
    return try database.transaction { () throws -> (note: VoiceNote, item: NoteActionItem, changed: Bool) in
      let matches = try database.query(
        """
        SELECT notes.id, json_extract(item.value, '$.id') AS item_id
        FROM notes, json_each(notes.action_items) AS item
        WHERE item_id >= ?1 AND item_id < ?2 ORDER BY item_id
        """, Self.prefixRange(prefix)
      ) { (note: $0.text(0) ?? "", item: $0.text(1) ?? "") }
      let match: (note: String, item: String)
      if let exact = matches.first(where: { $0.item == prefix }) {
        match = exact
      } else if matches.count == 1 {
        match = matches[0]
      } else if matches.isEmpty {
        throw NoteStoreError.actionItemNotFound(prefix)
      } else {
        throw NoteStoreError.ambiguousActionItem(prefix, matches.map(\.item))
      }
      guard var note = try note(id: match.note),
        let index = note.actionItems.firstIndex(where: { $0.id == match.item })
      else { throw NoteStoreError.actionItemNotFound(prefix) }
      guard note.actionItems[index].isCompleted != completed else { return (note, note.actionItems[index], false) }
      note.actionItems[index].isCompleted = completed
      try write(note)
      return (note, note.actionItems[index], true)
    }
  }
}
