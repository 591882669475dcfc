import CSQLite
import Foundation

/// One SQLite connection: the only code in VoiceNotes that calls SQLite.
///
/// Every result code goes through ``check(_:_:)``, which turns a failure into a
/// ``NoteStoreError/sqlite(code:message:path:operation:systemError:)`` carrying SQLite's message, the extended
/// result code and the database file. Statements are prepared once and reused. Not thread-safe: an
/// actor (``NoteStore``) owns it.
final class SQLiteDatabase {
  /// A value bound to a statement parameter.
  enum Value {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case null

    /// Text, or NULL for nil.
    static func optional(_ text: String?) -> Value { text.map { .text($0) } ?? .null }
  }

  /// The current row of a statement being stepped; valid only inside the closure that receives it.
  struct Row {
    fileprivate let statement: OpaquePointer

    /// Whether the column holds NULL.
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    /// The column as an integer (0 for NULL).
    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    /// The column as a floating-point number (0 for NULL).
    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    /// The column as text; nil for NULL.
    func text(_ column: Int32) -> String? {
      guard let bytes = sqlite3_column_text(statement, column) else { return nil }
      let count = Int(sqlite3_column_bytes(statement, column))
      return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's bytes (text or blob); nil for NULL.
    func data(_ column: Int32) -> Data? {
      guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
      let count = Int(sqlite3_column_bytes(statement, column))
      guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return Data() }
      return Data(bytes: bytes, count: count)
    }
  }

  /// The database file.
  let path: String
  private let connection: OpaquePointer
  private var statements: [String: OpaquePointer] = [:]

  /// How a connection may use the database file.
  enum Access {
    /// Read and write, creating the file if needed.
    case readWrite
    /// Read only, through the write-ahead log when its files are there.
    case readOnly
    /// Read only, trusting that nothing changes the file while it is open (a read-only file
    /// system without the log's files, which SQLite could otherwise not open at all).
    case immutable
  }

  /// Opens the database at `path` (creating it when `access` is ``Access/readWrite``), waiting up
  /// to `busyTimeout` for locks that other processes hold.
  init(path: String, access: Access = .readWrite, busyTimeout: Duration = .seconds(5)) throws(NoteStoreError) {
    self.path = path
    var opened: OpaquePointer?
    var flags = SQLITE_OPEN_NOMUTEX
    var name = path
    switch access {
    case .readWrite: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    case .readOnly: flags |= SQLITE_OPEN_READONLY
    case .immutable:
      flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
      var allowed = CharacterSet.urlPathAllowed
      allowed.remove(charactersIn: "?#")
      name = "file:\(path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path)?immutable=1"
    }
    let code = sqlite3_open_v2(name, &opened, flags, nil)
    guard code == SQLITE_OK, let opened else {
      let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
      let systemError = opened.map { sqlite3_system_errno($0) } ?? 0
      sqlite3_close_v2(opened)
      throw NoteStoreError.sqlite(
        code: code, message: message, path: path, operation: "opening the database", systemError: systemError)
    }
    connection = opened
    sqlite3_extended_result_codes(connection, 1)
    let milliseconds =
      busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
    try check(sqlite3_busy_timeout(connection, Int32(clamping: milliseconds)), "setting the busy timeout")
    if access == .readWrite {
      // The log and its index stay on disk when the last connection closes, so that the library
      // can still be opened, and read, when the disk is full or the folder read-only.
      var persist: Int32 = 1
      sqlite3_file_control(connection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
    }
    _ = SearchRanking.register(on: connection)
  }

  /// Whether this connection can only read (SQLite opens a file it may not write read-only).
  var isReadOnly: Bool { sqlite3_db_readonly(connection, "main") == 1 }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close_v2(connection)
  }

  /// Rows this connection has inserted, changed or deleted since it opened: with
  /// `PRAGMA data_version` (other connections' commits), tells when cached results are stale.
  var totalChanges: Int64 { Int64(sqlite3_total_changes(connection)) }

  // MARK: - Running SQL

  /// Runs one or more statements that take no parameters and return nothing (schema changes).
  func execute(_ sql: String) throws(NoteStoreError) {
    var failure: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(connection, sql, nil, nil, &failure)
    defer { sqlite3_free(failure) }
    guard code == SQLITE_OK else {
      let message = failure.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(connection))
      throw .sqlite(
        code: code, message: message, path: path, operation: Self.describe(sql),
        systemError: sqlite3_system_errno(connection))
    }
  }

  /// Runs one statement to completion, ignoring any rows.
  func run(_ sql: String, _ values: [Value] = []) throws {
    try withStatement(sql, values) { statement in
      while try step(statement, sql) {}
    }
  }

  /// Runs one statement and maps each row it returns.
  func query<T>(_ sql: String, _ values: [Value] = [], _ transform: (Row) throws -> T) throws -> [T] {
    var results: [T] = []
    try withStatement(sql, values) { statement in
      while try step(statement, sql) {
        results.append(try transform(Row(statement: statement)))
      }
    }
    return results
  }

  /// The first column of the first row, as an integer; nil when there is no row.
  func integer(_ sql: String, _ values: [Value] = []) throws -> Int64? {
    var result: Int64?
    try withStatement(sql, values) { statement in
      if try step(statement, sql) { result = sqlite3_column_int64(statement, 0) }
    }
    return result
  }

  /// The first column of the first row, as text; nil when there is no row or it is NULL.
  func text(_ sql: String, _ values: [Value] = []) throws -> String? {
    var result: String?
    try withStatement(sql, values) { statement in
      if try step(statement, sql) { result = Row(statement: statement).text(0) }
    }
    return result
  }

  /// Runs `body` in a write transaction (taking the write lock at once, so concurrent writers wait
  /// for each other rather than fail), committing if it returns and rolling back if it throws.
  func transaction<T>(_ body: () throws -> T) throws -> T {
    try run("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try run("COMMIT")
      return result
    } catch {
      if sqlite3_get_autocommit(connection) == 0 { try? run("ROLLBACK") }
      throw error
    }
  }

  /// Switches the database to write-ahead logging, waiting up to `timeout` for other processes.
  ///
  /// The switch needs the database to itself, and SQLite answers "busy" at once (without its busy
  /// handler) when another process opens or creates the same library at that moment, so this tries
  /// again until the timeout.
  func useWriteAheadLog(timeout: Duration = .seconds(5)) throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
      do {
        _ = try text("PRAGMA journal_mode = WAL")
        return
      } catch NoteStoreError.sqlite(let code, _, _, _, _) where code & 0xFF == SQLITE_BUSY && clock.now < deadline {
        usleep(20_000)
      }
    }
  }

  /// The schema version in the database header (`PRAGMA user_version`).
  var userVersion: Int {
    get throws { Int(try integer("PRAGMA user_version") ?? 0) }
  }

  /// Sets the schema version (inside the caller's transaction, if any).
  func setUserVersion(_ version: Int) throws(NoteStoreError) {
    try execute("PRAGMA user_version = \(version)")
  }

  // MARK: - Statements

  /// A prepared statement for `sql` with `values` bound, reset and cleared again after `body`.
  private func withStatement(
    _ sql: String, _ values: [Value], _ body: (OpaquePointer) throws -> Void
  ) throws {
    let statement = try prepared(sql)
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    for (offset, value) in values.enumerated() {
      try bind(value, at: Int32(offset + 1), in: statement, sql)
    }
    try body(statement)
  }

  /// The cached statement for `sql`, prepared on first use.
  private func prepared(_ sql: String) throws(NoteStoreError) -> OpaquePointer {
    if let statement = statements[sql] { return statement }
    var statement: OpaquePointer?
    try check(
      sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil),
      Self.describe(sql))
    guard let statement else {
      throw .sqlite(
        code: SQLITE_MISUSE, message: "no statement in the SQL", path: path, operation: Self.describe(sql),
        systemError: 0)
    }
    statements[sql] = statement
    return statement
  }

  private func bind(_ value: Value, at index: Int32, in statement: OpaquePointer, _ sql: String) throws(NoteStoreError)
  {
    let code: Int32
    switch value {
    case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
    case .real(let number): code = sqlite3_bind_double(statement, index, number)
    case .text(let text):
      code = sqlite3_bind_text64(
        statement, index, text, UInt64(text.utf8.count), csqlite_transient(), UInt8(SQLITE_UTF8))
    case .blob(let data):
      code = data.withUnsafeBytes { bytes in
        sqlite3_bind_blob64(
          statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count),
          csqlite_transient())
      }
    case .null: code = sqlite3_bind_null(statement, index)
    }
    try check(code, Self.describe(sql))
  }

  /// Steps once: true when a row is ready, false when the statement is done.
  private func step(_ statement: OpaquePointer, _ sql: String) throws(NoteStoreError) -> Bool {
    let code = sqlite3_step(statement)
    if code == SQLITE_ROW { return true }
    try check(code, Self.describe(sql))
    return false
  }

  // MARK: - Errors

  /// Passes success codes through and throws SQLite's own message for anything else.
  @discardableResult
  func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(NoteStoreError) -> Int32 {
    switch code {
    case SQLITE_OK, SQLITE_ROW, SQLITE_DONE: return code
    default:
      let message = String(cString: sqlite3_errmsg(connection))
      throw .sqlite(
        code: code, message: message, path: path, operation: operation(), systemError: sqlite3_system_errno(connection))
    }
  }

  /// A short description of a statement for an error message.
  private static func describe(_ sql: String) -> String {
    let words = sql.split(whereSeparator: \.isWhitespace).prefix(4).joined(separator: " ")
    return "running “\(words)…”"
  }
}
