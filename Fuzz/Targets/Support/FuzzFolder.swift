import Foundation

/// A scratch folder for this fuzzing process, removed and made again at start.
enum FuzzFolder {
  /// `$TMPDIR/voicenotes-fuzz-<pid>`.
  static let url: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "voicenotes-fuzz-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    try? FileManager.default.removeItem(at: url)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: FuzzFolder.url) }
    return url
  }()

  /// A file called `name` in the folder.
  static func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}
