import Foundation

extension NoteStore {
  /// Stores the semantic index of the note `noteID`: its passages with their vectors, and its
  /// centroid, all made by `model`, replacing what was there; does nothing (returning false) when
  /// the note has been deleted meanwhile. One transaction, so a search sees all or none of it.
  @discardableResult
  public func savePassages(
    _ passages: [NotePassage], vectors: [[Float]], model: String, of noteID: String, at date: Date = Date()
  ) throws -> Bool {
    try database.transaction { () throws -> Bool in
      guard try database.integer("SELECT EXISTS (SELECT 1 FROM notes WHERE id = ?)", [.text(noteID)]) == 1 else {
        return false
      }
      try database.run("DELETE FROM note_passages WHERE note_id = ?", [.text(noteID)])
      for (passage, vector) in zip(passages, vectors) {
        try database.run(
          """
          INSERT INTO note_passages (note_id, passage, kind, start, end_time, text, vector)
          VALUES (?, ?, ?, ?, ?, ?, ?)
          """,
          [
            .text(noteID), .integer(Int64(passage.index)), .text(passage.kind.rawValue), .real(passage.start),
            .real(passage.end), .text(passage.text), .blob(Self.blob(vector)),
          ])
      }
      let dimension = vectors.first?.count ?? 0
      try database.run(
        """
        INSERT INTO note_vectors (note_id, model, updated_at, vector) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (note_id) DO UPDATE SET model = ?2, updated_at = ?3, vector = ?4
        """,
        [
          .text(noteID), .text(model), .real(date.timeIntervalSinceReferenceDate),
          .blob(Self.blob(VectorIndex.centroid(of: vectors, dimension: dimension))),
        ])
      return true
    }
  }

  /// Identifiers of finished notes with text that `model` has not indexed (new notes from before
  /// the index existed, or a library indexed with another model), oldest first.
  public func notesNeedingPassages(model: String) throws -> [String] {
    try database.query(
      """
      SELECT n.id FROM notes n LEFT JOIN note_vectors v ON v.note_id = n.id AND v.model = ?1
      WHERE n.stage = 'done' AND n.transcript IS NOT NULL AND v.note_id IS NULL
      ORDER BY n.created_at, n.number
      """, [.text(model)]
    ) { $0.text(0) ?? "" }
  }

  /// Whether `model` has indexed any note: what every search by meaning checks first, so one row
  /// is looked up rather than all of them counted.
  func hasIndexedNote(model: String) throws -> Bool {
    try database.integer("SELECT EXISTS (SELECT 1 FROM note_vectors WHERE model = ?)", [.text(model)]) == 1
  }

  /// How many notes `model` has indexed.
  public func indexedNoteCount(model: String) throws -> Int {
    Int(try database.integer("SELECT count(*) FROM note_vectors WHERE model = ?", [.text(model)]) ?? 0)
  }

  /// A value that changes whenever any note's index does: what a cached ``VectorIndex`` of the
  /// centroids is checked against before each search.
  func passageIndexVersion() throws -> Int64 {
    try database.integer("SELECT version FROM note_vectors_version WHERE id = 1", []) ?? 0
  }

  /// Every note's centroid made by `model`, as one index, and the note each row belongs to.
  func centroids(model: String, dimension: Int) throws -> (index: VectorIndex, noteIDs: [String]) {
    var index = VectorIndex(dimension: dimension)
    index.reserve(try indexedNoteCount(model: model))
    var noteIDs: [String] = []
    _ = try database.query("SELECT note_id, vector FROM note_vectors WHERE model = ?", [.text(model)]) { row in
      if index.append(Self.floats(row.data(1))) { noteIDs.append(row.text(0) ?? "") }
    }
    return (index, noteIDs)
  }

  /// The passages of the notes `noteIDs` that `model` indexed, with their vectors.
  func passages(of noteIDs: [String], model: String) throws -> [(passage: NotePassage, vector: [Float])] {
    guard !noteIDs.isEmpty else { return [] }
    let list = String(decoding: try JSONEncoder().encode(noteIDs), as: UTF8.self)
    return try database.query(
      """
      SELECT p.note_id, p.passage, p.kind, p.start, p.end_time, p.text, p.vector FROM note_passages p
      JOIN note_vectors v ON v.note_id = p.note_id AND v.model = ?2
      WHERE p.note_id IN (SELECT value FROM json_each(?1))
      """, [.text(list), .text(model)]
    ) { row in
      let passage = NotePassage(
        noteID: row.text(0) ?? "", index: Int(row.int(1)),
        kind: NotePassage.Kind(rawValue: row.text(2) ?? "") ?? .transcript, start: row.double(3),
        end: row.double(4), text: row.text(5) ?? "")
      return (passage, Self.floats(row.data(6)))
    }
  }

  /// The stored passages of one note, in order, without their vectors.
  public func passages(ofNote noteID: String) throws -> [NotePassage] {
    try database.query(
      "SELECT passage, kind, start, end_time, text FROM note_passages WHERE note_id = ? ORDER BY passage",
      [.text(noteID)]
    ) { row in
      NotePassage(
        noteID: noteID, index: Int(row.int(0)), kind: NotePassage.Kind(rawValue: row.text(1) ?? "") ?? .transcript,
        start: row.double(2), end: row.double(3), text: row.text(4) ?? "")
    }
  }

  /// The centroid of one note, when `model` has indexed it.
  func centroid(ofNote noteID: String, model: String) throws -> [Float]? {
    try database.query(
      "SELECT vector FROM note_vectors WHERE note_id = ? AND model = ?", [.text(noteID), .text(model)]
    ) { Self.floats($0.data(0)) }.first
  }

  // MARK: - Vectors as blobs

  /// `values` as little-endian 32-bit floats.
  static func blob(_ values: [Float]) -> Data {
    var data = Data(capacity: values.count * 4)
    for value in values {
      withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
    }
    return data
  }

  /// The floats stored as ``blob(_:)-swift.type.method`` wrote them (a trailing partial float
  /// is dropped).
  static func floats(_ data: Data?) -> [Float] {
    guard let data else { return [] }
    let count = data.count / 4
    var values = [Float](repeating: 0, count: count)
    values.withUnsafeMutableBytes { target in
      data.withUnsafeBytes { source in target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[..<(count * 4)]))
      }
    }
    #if _endian(big)
      values = values.map { Float(bitPattern: UInt32(littleEndian: $0.bitPattern)) }
    #endif
    return values
  }
}
