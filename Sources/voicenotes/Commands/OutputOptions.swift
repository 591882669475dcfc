import CommandLineParsing
import Foundation

/// The output options several commands share, declared once so they read and behave the same
/// everywhere.
enum OutputOptions {
  /// `--json`: machine-readable output with the fields docs/cli.md lists.
  static let json = Flag("json", help: "Print JSON instead of text (fields: docs/cli.md).")
  /// `--words`: word-level timing and confidence in JSON transcripts.
  static let words = Flag("words", help: "Include each word's timing and confidence in JSON.")
  /// `--quiet`: no progress on standard error.
  static let quiet = Flag("quiet", short: "q", help: "Show no progress.")
  /// `--force`: replace files that exist.
  static let force = Flag("force", help: "Replace output files that already exist.")

  /// Prints `value` as pretty JSON with sorted keys and unescaped slashes.
  static func printJSON<T: Encodable>(_ value: T) throws {
    print(try NoteFormatting.json(value))
  }

  /// Prints JSON `text` (from elsewhere) in the same layout.
  static func printJSON(text: String) throws {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    let data = try JSONSerialization.data(
      withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
  }
}
