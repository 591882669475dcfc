import Foundation
import SpeechRecognition

extension NoteStore {
  // MARK: - A note's speakers

  /// The speakers of the note `noteID`, by index, with the names of the voices they are.
  func speakers(ofNote noteID: String) throws -> [NoteSpeaker] {
    try database.query(
      """
      SELECT s.speaker, s.embedding, s.seconds, s.voice_id, v.name, s.confirmed
      FROM note_speakers s LEFT JOIN voices v ON v.id = s.voice_id
      WHERE s.note_id = ? ORDER BY s.speaker
      """, [.text(noteID)], Self.decodeSpeaker)
  }

  /// `notes` with their speakers read in.
  func withSpeakers(_ notes: [VoiceNote]) throws -> [VoiceNote] {
    guard !notes.isEmpty else { return notes }
    if notes.count == 1 {
      var note = notes[0]
      note.speakers = try speakers(ofNote: note.id)
      return [note]
    }
    let rows = try database.query(
      """
      SELECT s.speaker, s.embedding, s.seconds, s.voice_id, v.name, s.confirmed, s.note_id
      FROM note_speakers s LEFT JOIN voices v ON v.id = s.voice_id ORDER BY s.note_id, s.speaker
      """, []
    ) { row in (noteID: row.text(6) ?? "", speaker: try Self.decodeSpeaker(row)) }
    let byNote = Dictionary(grouping: rows, by: \.noteID)
    return notes.map { note in
      var note = note
      note.speakers = byNote[note.id]?.map(\.speaker) ?? []
      return note
    }
  }

  /// Replaces the stored speakers of `note` with its own; the caller holds the transaction.
  func writeSpeakers(of note: VoiceNote) throws {
    try database.run("DELETE FROM note_speakers WHERE note_id = ?", [.text(note.id)])
    for speaker in note.speakers {
      try database.run(
        "INSERT INTO note_speakers (note_id, speaker, embedding, seconds, voice_id, confirmed) VALUES (?, ?, ?, ?, ?, ?)",
        [
          .text(note.id), .integer(Int64(speaker.index)), .blob(Self.blob(speaker.embedding)), .real(speaker.duration),
          .optional(speaker.voiceID), .integer(speaker.isConfirmed ? 1 : 0),
        ])
    }
  }

  private static func decodeSpeaker(_ row: SQLiteDatabase.Row) throws -> NoteSpeaker {
    NoteSpeaker(
      index: Int(row.int(0)), embedding: embedding(row.data(1)), duration: row.double(2), voiceID: row.text(3),
      name: row.text(4), isConfirmed: row.int(5) != 0)
  }

  // MARK: - Named voices

  /// Every named voice, by name, with the number of notes it labels a speaker in.
  public func voices() throws -> [NamedVoice] {
    try database.query(
      """
      SELECT v.id, v.name, v.embedding, v.created_at, v.updated_at,
        (SELECT count(DISTINCT note_id) FROM note_speakers WHERE voice_id = v.id)
      FROM voices v ORDER BY v.name COLLATE NOCASE
      """, [], Self.decodeVoice)
  }

  /// The voice called `name` (ignoring case), or nil.
  public func voice(named name: String) throws -> NamedVoice? {
    try database.query(
      """
      SELECT v.id, v.name, v.embedding, v.created_at, v.updated_at,
        (SELECT count(DISTINCT note_id) FROM note_speakers WHERE voice_id = v.id)
      FROM voices v WHERE v.name = ? COLLATE NOCASE
      """, [.text(name)], Self.decodeVoice
    ).first
  }

  private static func decodeVoice(_ row: SQLiteDatabase.Row) throws -> NamedVoice {
    NamedVoice(
      id: row.text(0) ?? "", name: row.text(1) ?? "", embedding: embedding(row.data(2)),
      createdAt: Date(timeIntervalSinceReferenceDate: row.double(3)),
      updatedAt: Date(timeIntervalSinceReferenceDate: row.double(4)), noteCount: Int(row.int(5)))
  }

  /// Says that speaker `index` of note `noteID` is the voice called `name`, creating the voice
  /// from this speaker when the library has none of that name, and pools the voice again from
  /// every speaker confirmed as it. Another speaker of the note labelled with that voice loses
  /// the label (one name per voice in a note). Returns the note.
  public func nameSpeaker(noteID: String, index: Int, name: String, at date: Date = Date()) throws -> VoiceNote? {
    try database.transaction { () throws -> VoiceNote? in
      let speakers = try speakers(ofNote: noteID)
      guard let speaker = speakers.first(where: { $0.index == index }) else { return nil }
      let voiceID: String
      if let existing = try voice(named: name) {
        voiceID = existing.id
      } else {
        voiceID = UUID().uuidString.lowercased()
        try database.run(
          "INSERT INTO voices (id, name, embedding, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
          [
            .text(voiceID), .text(name), .blob(Self.blob(speaker.embedding)),
            .real(date.timeIntervalSinceReferenceDate), .real(date.timeIntervalSinceReferenceDate),
          ])
      }
      let previous = speaker.voiceID
      try database.run(
        "UPDATE note_speakers SET voice_id = NULL, confirmed = 0 WHERE note_id = ? AND voice_id = ? AND speaker <> ?",
        [.text(noteID), .text(voiceID), .integer(Int64(index))])
      try database.run(
        "UPDATE note_speakers SET voice_id = ?, confirmed = 1 WHERE note_id = ? AND speaker = ?",
        [.text(voiceID), .text(noteID), .integer(Int64(index))])
      try pool(voiceID: voiceID, at: date)
      if let previous, previous != voiceID { try pool(voiceID: previous, at: date) }
      return try note(id: noteID)
    }
  }

  /// Says that speaker `index` of note `noteID` is nobody the library knows: its label goes back
  /// to "Speaker N" and stays so. Returns the note.
  public func unnameSpeaker(noteID: String, index: Int, at date: Date = Date()) throws -> VoiceNote? {
    try database.transaction { () throws -> VoiceNote? in
      guard let speaker = try speakers(ofNote: noteID).first(where: { $0.index == index }) else { return nil }
      try database.run(
        "UPDATE note_speakers SET voice_id = NULL, confirmed = 1 WHERE note_id = ? AND speaker = ?",
        [.text(noteID), .integer(Int64(index))])
      if let previous = speaker.voiceID { try pool(voiceID: previous, at: date) }
      return try note(id: noteID)
    }
  }

  /// Gives the voice `voiceID` the name `name`.
  public func renameVoice(_ voiceID: String, to name: String, at date: Date = Date()) throws {
    try database.transaction {
      try database.run(
        "UPDATE voices SET name = ?, updated_at = ? WHERE id = ?",
        [.text(name), .real(date.timeIntervalSinceReferenceDate), .text(voiceID)])
    }
  }

  /// Makes the voice `sourceID` part of `targetID`: its speakers are labelled with the target,
  /// except in a note that has the target already (there the source's speaker is left unnamed),
  /// and the target is pooled again from every speaker confirmed as either.
  public func mergeVoice(_ sourceID: String, into targetID: String, at date: Date = Date()) throws {
    try database.transaction {
      try database.run(
        """
        UPDATE note_speakers SET voice_id = NULL, confirmed = 0
        WHERE voice_id = ?1 AND note_id IN (SELECT note_id FROM note_speakers WHERE voice_id = ?2)
        """, [.text(sourceID), .text(targetID)])
      try database.run("UPDATE note_speakers SET voice_id = ? WHERE voice_id = ?", [.text(targetID), .text(sourceID)])
      try database.run("DELETE FROM voices WHERE id = ?", [.text(sourceID)])
      try pool(voiceID: targetID, at: date)
    }
  }

  /// Removes the voice `voiceID`; the speakers it labelled become "Speaker N" again (and may be
  /// named anew). Returns how many notes it labelled.
  public func forgetVoice(_ voiceID: String) throws -> Int {
    try database.transaction { () throws -> Int in
      let notes = Int(
        try database.integer(
          "SELECT count(DISTINCT note_id) FROM note_speakers WHERE voice_id = ?", [.text(voiceID)]) ?? 0)
      try database.run(
        "UPDATE note_speakers SET voice_id = NULL, confirmed = 0 WHERE voice_id = ?", [.text(voiceID)])
      try database.run("DELETE FROM voices WHERE id = ?", [.text(voiceID)])
      return notes
    }
  }

  /// Pools the voice `voiceID` again from the speakers confirmed as it; a voice no speaker is
  /// confirmed as any more keeps the embedding it had.
  private func pool(voiceID: String, at date: Date) throws {
    let confirmed = try database.query(
      "SELECT speaker, embedding, seconds, voice_id, NULL, confirmed FROM note_speakers WHERE voice_id = ? AND confirmed = 1",
      [.text(voiceID)], Self.decodeSpeaker)
    guard let pooled = VoiceMemory.pooled(confirmed) else { return }
    try database.run(
      "UPDATE voices SET embedding = ?, updated_at = ? WHERE id = ?",
      [.blob(Self.blob(pooled)), .real(date.timeIntervalSinceReferenceDate), .text(voiceID)])
  }

  // MARK: - Embeddings as blobs

  /// The embedding's components as little-endian 32-bit floats.
  static func blob(_ embedding: SpeakerEmbedding) -> Data { blob(embedding.values) }

  /// The embedding stored as ``blob(_:)`` wrote it.
  static func embedding(_ data: Data?) -> SpeakerEmbedding { SpeakerEmbedding(values: floats(data)) }
}
