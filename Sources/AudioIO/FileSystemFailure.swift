import Foundation

/// Person-readable reasons for failed file operations.
///
/// Foundation on Linux describes its file errors only by number ("NSCocoaErrorDomain error 512"),
/// which tells a person nothing; the system's own reason ("No space left on device") is kept in
/// the error's underlying POSIX error, and this finds it.
public enum FileSystemFailure {
  /// Why `error` happened, in the system's words when it gave them ("Permission denied", "No
  /// space left on device", "Not a directory"), else the error's own description.
  public static func reason(for error: any Error) -> String {
    if let code = posixCode(of: error) { return String(cString: strerror(code)) }
    let nsError = error as NSError
    guard nsError.domain == NSCocoaErrorDomain else { return error.localizedDescription }
    return cocoaReasons[nsError.code] ?? "the file operation failed (Foundation error \(nsError.code))"
  }

  /// Whether `error` says the disk (or the process's file size limit) has no room left.
  public static func isOutOfSpace(_ error: any Error) -> Bool {
    if let code = posixCode(of: error) { return [ENOSPC, EDQUOT, EFBIG].contains(code) }
    return (error as NSError).domain == NSCocoaErrorDomain && (error as NSError).code == 640
  }

  /// The `errno` behind `error`: its own when it is a POSIX error, else its underlying error's.
  private static func posixCode(of error: any Error) -> Int32? {
    var current: NSError? = error as NSError
    while let nsError = current {
      if nsError.domain == NSPOSIXErrorDomain, nsError.code > 0 { return Int32(nsError.code) }
      // Foundation on Linux keeps the underlying error as a Swift error, not an NSError.
      current = (nsError.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
    }
    return nil
  }

  /// Words for the Cocoa file error codes that arrive without an underlying POSIX error.
  private static let cocoaReasons: [Int: String] = [
    4: "No such file or directory",
    256: "the file could not be read",
    257: "Permission denied",
    260: "No such file or directory",
    512: "the file could not be written",
    513: "Permission denied",
    516: "a file with that name already exists",
    640: "No space left on device",
    642: "Read-only file system",
  ]
}
