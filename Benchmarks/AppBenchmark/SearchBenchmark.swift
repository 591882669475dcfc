import Foundation
import VoiceNotes

/// Search latency over a large generated library: every scope, single and several words, whole
/// and partial words, common and rare ones, with and without diacritics.
struct SearchBenchmark {
  let noteCount: Int
  let rounds: Int
  let cache: URL

  /// The queries timed, with the scope each runs in. The words come from the sample-note
  /// generator's vocabulary (common topic words, names, invented rare words).
  static let queries: [(String, SearchScope)] = [
    ("budget", .all), ("meeting", .all), ("the", .all), ("mar", .all), ("jose", .all), ("zoe", .people),
    ("café", .all), ("flight hotel", .all), ("call marcus", .all), ("dentist", .title), ("invoice", .summary),
    ("garden", .tags), ("priya", .people), ("send", .actionItems), ("lisbon", .transcript),
    ("renkavo", .all), ("xan", .all), ("project review next", .all), ("b", .all), ("nothingmatches", .all),
  ]

  func run() async throws {
    let library = try await prepareLibrary()
    let store = try NoteStore(library: library)
    let count = try await store.count()
    print("search: \(count) notes of 300 words, \(Self.queries.count) queries x \(rounds) rounds")
    for (query, scope) in Self.queries { _ = try await store.search(query, scope: scope) }  // warm the cache
    var all: [Double] = []
    var perQuery: [String: [Double]] = [:]
    var hits: [String: Int] = [:]
    for _ in 0..<rounds {
      for (query, scope) in Self.queries {
        let (results, seconds) = try await Statistics.time { try await store.search(query, scope: scope) }
        let key = "\(query) [\(scope.rawValue)]"
        perQuery[key, default: []].append(seconds * 1000)
        hits[key] = results.count
        all.append(seconds * 1000)
      }
    }
    print("query                               results   p50 ms   p99 ms")
    for (query, scope) in Self.queries {
      let key = "\(query) [\(scope.rawValue)]"
      let times = perQuery[key] ?? []
      print(
        key.padding(toLength: 34, withPad: " ", startingAt: 0)
          + String(
            format: " %8d %8.2f %8.2f", hits[key] ?? 0, Statistics.median(times), Statistics.percentile(times, 0.99)))
    }
    print(
      String(
        format: "all queries: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d searches)", Statistics.median(all),
        Statistics.percentile(all, 0.99), all.max() ?? 0, all.count))
  }

  /// A library of `noteCount` generated notes in `folder`, by default kept in the cache between
  /// runs (the notes are the same for the same count).
  func prepareLibrary(at folder: URL? = nil) async throws -> URL {
    let library = folder ?? cache.appendingPathComponent("search-\(noteCount)")
    if let store = try? NoteStore(library: library), (try? await store.count()) == noteCount { return library }
    try? FileManager.default.removeItem(at: library)
    FileManager.default.fputs("search: generating \(noteCount) notes in \(library.path)…")
    let store = try NoteStore(library: library)
    let (_, seconds) = try await Statistics.time { try await store.addSampleNotes(count: noteCount) }
    FileManager.default.fputs(String(format: "search: generated in %.1f s", seconds))
    return library
  }
}

extension FileManager {
  /// Writes a progress line to stderr.
  func fputs(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
}
