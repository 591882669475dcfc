import AudioIO
import Foundation
import Testing

/// Foundation's file errors on Linux come as numbers; people get the system's own words.
@Suite("File system failure reasons")
struct FileSystemFailureTests {
  @Test("a copy onto an existing file, into a missing folder and under a file give the system's reason")
  func reasons() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fsf-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("a")
    try Data("x".utf8).write(to: file)
    let cases: [(URL, String)] = [
      (file, "exists"),
      (folder.appendingPathComponent("missing/b"), "No such file or directory"),
      (file.appendingPathComponent("c"), "Not a directory"),
    ]
    for (destination, expected) in cases {
      do {
        try FileManager.default.copyItem(at: file, to: destination)
        Issue.record("copying to \(destination.path) succeeded")
      } catch {
        let reason = FileSystemFailure.reason(for: error)
        #expect(reason.contains(expected), "\(destination.path): \(reason)")
        #expect(!reason.contains("NSCocoaErrorDomain"), "\(reason)")
      }
    }
    #expect(FileSystemFailure.isOutOfSpace(POSIXError(.ENOSPC)))
    #expect(!FileSystemFailure.isOutOfSpace(POSIXError(.EACCES)))
  }
}
