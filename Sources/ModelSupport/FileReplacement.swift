import Foundation

/// Puts a finished file in the place of the one it replaces, in one step.
///
/// `FileManager.replaceItemAt(_:withItemAt:)` in this toolchain's Foundation on Linux renames the
/// original onto the replacement (its two paths swapped), so the original vanishes and the new
/// file is thrown away. `rename(2)` replaces an existing file atomically on one file system: a
/// reader sees the old file or the new one, never neither.
public enum FileReplacement {
  /// Moves `source` to `destination`, replacing whatever file is there; both must be on one file
  /// system (a partial file written beside its destination is).
  public static func move(_ source: URL, over destination: URL) throws(FileReplacementError) {
    guard rename(source.path, destination.path) == 0 else {
      throw FileReplacementError(source: source.path, destination: destination.path, code: errno)
    }
  }
}

/// Why a finished file could not be moved into place.
public struct FileReplacementError: Error, LocalizedError, Equatable, Sendable {
  /// The finished file that was to be moved.
  public let source: String
  /// The path it was to replace.
  public let destination: String
  /// The `errno` that `rename(2)` set.
  public let code: Int32

  /// What failed, in the system's words ("No space left on device", "Permission denied").
  public var errorDescription: String? {
    "cannot move \(source) to \(destination): \(String(cString: strerror(code)))"
  }
}
