import Foundation

/// The transcripts of a dev file (`../shared/eval/analysis-dev.jsonl`: one JSON object a line with
/// a `transcript` string), in file order: the real text the analysis and embedding benchmarks time.
enum DevTranscripts {
  /// Every line's transcript; a line without one is an error naming the file.
  static func read(_ file: URL) throws -> [String] {
    try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { line in
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let transcript = object["transcript"] as? String
      else { throw BenchmarkError("\(file.path): a line without a transcript") }
      return transcript
    }
  }
}
