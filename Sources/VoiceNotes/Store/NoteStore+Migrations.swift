import Foundation

extension NoteStore {
  /// One step of the schema: applied once, in its own transaction, to databases whose
  /// `PRAGMA user_version` is below ``version``, which it then sets.
  struct Migration: Sendable {
    /// The schema version this step produces.
    let version: Int
    /// Changes the schema (and, for later versions, moves data across).
    let apply: @Sendable (SQLiteDatabase) throws -> Void
  }

  /// Every schema step, oldest first. To change the schema, append a step with the next version
  /// (`ALTER TABLE`, a new index, a full-text table rebuilt from the notes) and
  /// never edit one that has shipped.
  static let migrations: [Migration] = [
    Migration(version: 1) { database in
      try database.execute(
        """
        CREATE TABLE notes (
          number INTEGER PRIMARY KEY,   -- stable across VACUUM: the full-text index's rowid
          id TEXT NOT NULL UNIQUE,      -- lowercase UUID
          created_at REAL NOT NULL,     -- seconds since 2001-01-01 00:00 UTC (exact round trip of Date)
          duration REAL NOT NULL,       -- seconds
          audio_file TEXT NOT NULL,     -- file name inside audio/
          original_file TEXT NOT NULL,
          title TEXT NOT NULL,
          custom_title INTEGER NOT NULL DEFAULT 0,
          transcript TEXT,              -- JSON: Transcript
          summary TEXT,
          tags TEXT NOT NULL DEFAULT '[]',          -- JSON: [String]
          people TEXT NOT NULL DEFAULT '[]',        -- JSON: [String]
          action_items TEXT NOT NULL DEFAULT '[]',  -- JSON: [NoteActionItem]
          stage TEXT NOT NULL,          -- ProcessingState.Stage
          last_error TEXT
        );
        CREATE INDEX notes_by_date ON notes (created_at);
        CREATE INDEX notes_needing_work ON notes (created_at) WHERE stage <> 'done' AND last_error IS NULL;
        CREATE VIRTUAL TABLE note_search USING fts5 (
          title, transcript, summary, tags, people, action_items,
          tokenize = 'unicode61 remove_diacritics 2',
          prefix = '2 3'
        );
        """)
    },
    // Every word the search index holds, so that a typed prefix can be expanded into the few words
    // it starts (an OR of exact words) instead of FTS5's prefix query, which merges the posting
    // lists of every matching word before it can return the first row.
    Migration(version: 2) { database in
      try database.execute("CREATE TABLE search_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;")
      let rows = try database.query(
        "SELECT title, transcript, summary, tags, people, action_items FROM note_search"
      ) { row in (0..<6).map { row.text(Int32($0)) ?? "" } }
      var terms = Set<String>()
      for fields in rows { terms.formUnion(fields.flatMap(FullTextQuery.foldedWords)) }
      try addSearchTerms(terms, to: database)
    },
    // Who speaks: each note's speakers (the index its transcript's segments use, the voice
    // pooled over the speaker's turns, seconds of speech, the named voice it is) and the
    // library's named voices, remembered so a voice named once is recognised in later notes.
    Migration(version: 3) { database in
      try database.execute(
        """
        CREATE TABLE IF NOT EXISTS voices (
          id TEXT PRIMARY KEY,                      -- lowercase UUID
          name TEXT NOT NULL UNIQUE COLLATE NOCASE,
          embedding BLOB NOT NULL,                  -- little-endian Float32 components
          created_at REAL NOT NULL,                 -- seconds since 2001-01-01 00:00 UTC
          updated_at REAL NOT NULL
        );
        CREATE TABLE IF NOT EXISTS note_speakers (
          note_id TEXT NOT NULL,                    -- notes.id
          speaker INTEGER NOT NULL,                 -- Transcript.Segment.speaker, from 0
          embedding BLOB NOT NULL,                  -- little-endian Float32 components
          seconds REAL NOT NULL,
          voice_id TEXT,                            -- voices.id, or NULL when not known
          confirmed INTEGER NOT NULL DEFAULT 0,     -- 1 when the person said who it is
          PRIMARY KEY (note_id, speaker)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS note_speakers_by_voice ON note_speakers (voice_id) WHERE voice_id IS NOT NULL;
        """)
    },
    // The semantic index: each note's passages (stretches of transcript, the summary, each action
    // item) with a sentence-embedding vector, and per note the unit-length mean of them, which a
    // search scores first. A note's row in note_vectors also says which model indexed it.
    Migration(version: 4) { database in
      try database.execute(
        """
        CREATE TABLE IF NOT EXISTS note_vectors (
          note_id TEXT PRIMARY KEY,     -- notes.id
          model TEXT NOT NULL,          -- the embedding model's name
          updated_at REAL NOT NULL,     -- seconds since 2001-01-01 00:00 UTC
          vector BLOB NOT NULL          -- little-endian Float32 components; empty for a note with no text
        );
        CREATE TABLE IF NOT EXISTS note_passages (
          note_id TEXT NOT NULL,        -- notes.id
          passage INTEGER NOT NULL,     -- from 0, in the note's order
          kind TEXT NOT NULL,           -- NotePassage.Kind
          start REAL NOT NULL,          -- seconds into the recording
          end_time REAL NOT NULL,
          text TEXT NOT NULL,
          vector BLOB NOT NULL,         -- little-endian Float32 components
          PRIMARY KEY (note_id, passage)
        );
        """)
    },
    // A counter that every change to note_vectors raises, so a search checks its cached
    // centroids against one row instead of scanning all of them (70 ms at 100,000 notes).
    Migration(version: 5) { database in
      try database.execute(
        """
        CREATE TABLE IF NOT EXISTS note_vectors_version (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          version INTEGER NOT NULL      -- raised by the triggers below
        );
        INSERT OR IGNORE INTO note_vectors_version (id, version) VALUES (1, 0);
        CREATE TRIGGER IF NOT EXISTS note_vectors_inserted AFTER INSERT ON note_vectors
          BEGIN UPDATE note_vectors_version SET version = version + 1; END;
        CREATE TRIGGER IF NOT EXISTS note_vectors_updated AFTER UPDATE ON note_vectors
          BEGIN UPDATE note_vectors_version SET version = version + 1; END;
        CREATE TRIGGER IF NOT EXISTS note_vectors_deleted AFTER DELETE ON note_vectors
          BEGIN UPDATE note_vectors_version SET version = version + 1; END;
        """)
    },
  ]

  /// Records `terms` in `search_terms` (one statement for the lot).
  static func addSearchTerms(_ terms: some Collection<String>, to database: SQLiteDatabase) throws {
    guard !terms.isEmpty else { return }
    let list = try JSONEncoder().encode(Array(terms))
    try database.run(
      "INSERT OR IGNORE INTO search_terms (term) SELECT value FROM json_each(?)",
      [.text(String(decoding: list, as: UTF8.self))])
  }

  /// The schema version this code writes.
  static var schemaVersion: Int { migrations.last?.version ?? 0 }

  /// Brings the database up to ``schemaVersion``, one step per transaction. Safe when several
  /// processes open the library at once: each step re-reads the version under the write lock.
  static func migrate(_ database: SQLiteDatabase) throws {
    let found = try database.userVersion
    guard found <= schemaVersion else {
      throw NoteStoreError.newerSchema(found: found, supported: schemaVersion, path: database.path)
    }
    for migration in migrations where migration.version > found {
      try database.transaction {
        guard try database.userVersion < migration.version else { return }
        try migration.apply(database)
        try database.setUserVersion(migration.version)
      }
    }
  }
}
