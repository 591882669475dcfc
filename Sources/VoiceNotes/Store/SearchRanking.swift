import CSQLite
import Foundation

/// The full-text ranking function: BM25's term-frequency part with per-column weights, registered
/// on each connection as `note_rank(note_search, weight...)`.
///
/// FTS5's built-in `bm25()` also weighs each query word by how rare it is, and to know that it
/// walks the word's whole posting list on every search: about 2.5 ms per word that occurs in
/// 100,000 notes, the largest cost of a search. Every query word must match anyway, so this
/// ranking leaves rarity out and costs only the matched row's own positions.
enum SearchRanking {
  /// The SQL name of the function.
  static let functionName = "note_rank"

  /// The pointer type FTS5 hands its API under. SQLite keeps this C string and compares it while
  /// the statement runs, so it must outlive the call that binds it (SQLite asks for a static
  /// string); a Swift string literal passed directly is a temporary copy, freed when the bind returns.
  private nonisolated(unsafe) static let apiPointerType = UnsafePointer<CChar>(strdup("fts5_api_ptr")!)

  /// Makes `note_rank` available on `connection`; returns false if FTS5 is missing.
  static func register(on connection: OpaquePointer) -> Bool {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(connection, "SELECT fts5(?1)", -1, &statement, nil) == SQLITE_OK else { return false }
    defer { sqlite3_finalize(statement) }
    var api: UnsafeMutablePointer<fts5_api>?
    withUnsafeMutablePointer(to: &api) { pointer in
      _ = sqlite3_bind_pointer(statement, 1, pointer, apiPointerType, nil)
      _ = sqlite3_step(statement)
    }
    guard let api, let create = api.pointee.xCreateFunction else { return false }
    return create(api, functionName, nil, rank, nil) == SQLITE_OK
  }

  /// BM25 constants: how fast repeated words saturate, and how much a long field is discounted.
  private static let saturation = 1.2
  private static let lengthDiscount = 0.75

  private static let rank: fts5_extension_function = { api, fts, context, argumentCount, arguments in
    guard let api, let fts, let context else { return }
    let calls = api.pointee
    guard let columnCount = calls.xColumnCount?(fts), let phraseCount = calls.xPhraseCount?(fts),
      columnCount > 0, phraseCount > 0
    else {
      sqlite3_result_double(context, 0)
      return
    }
    var instances: Int32 = 0
    _ = calls.xInstCount?(fts, &instances)
    var frequencies = [Int32](repeating: 0, count: Int(columnCount * phraseCount))
    for instance in 0..<instances {
      var phrase: Int32 = 0
      var column: Int32 = 0
      var offset: Int32 = 0
      guard calls.xInst?(fts, instance, &phrase, &column, &offset) == SQLITE_OK else { continue }
      frequencies[Int(phrase * columnCount + column)] += 1
    }
    var rows: Int64 = 0
    _ = calls.xRowCount?(fts, &rows)
    var score = 0.0
    for column in 0..<columnCount {
      let weight =
        column < argumentCount ? arguments.map { sqlite3_value_double($0[Int(column)]) } ?? 1 : 1
      var size: Int32 = 0
      var total: Int64 = 0
      _ = calls.xColumnSize?(fts, column, &size)
      _ = calls.xColumnTotalSize?(fts, column, &total)
      let average = max(Double(total) / Double(max(rows, 1)), 1)
      let norm = saturation * (1 - lengthDiscount + lengthDiscount * Double(size) / average)
      for phrase in 0..<phraseCount {
        let frequency = Double(frequencies[Int(phrase * columnCount + column)])
        guard frequency > 0 else { continue }
        score += weight * frequency * (saturation + 1) / (frequency + norm)
      }
    }
    sqlite3_result_double(context, score)
  }
}
