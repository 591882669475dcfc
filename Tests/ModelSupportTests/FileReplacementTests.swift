import Foundation
import ModelSupport
import Testing

/// A finished file takes the place of the old one; Foundation's replaceItemAt lost both here.
@Suite("File replacement")
struct FileReplacementTests {
  @Test("a finished file replaces an existing one and the partial file is gone")
  func replacesExisting() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let destination = folder.appendingPathComponent("model.bin")
    let partial = folder.appendingPathComponent(".model.bin.partial")
    try Data("old".utf8).write(to: destination)
    try Data("new".utf8).write(to: partial)
    try FileReplacement.move(partial, over: destination)
    #expect(try String(contentsOf: destination, encoding: .utf8) == "new")
    #expect(!FileManager.default.fileExists(atPath: partial.path))
  }

  @Test("a missing source fails with the system's reason and leaves the destination as it was")
  func missingSource() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let destination = folder.appendingPathComponent("key.pem")
    try Data("kept".utf8).write(to: destination)
    #expect {
      try FileReplacement.move(folder.appendingPathComponent("absent"), over: destination)
    } throws: { error in
      (error as? FileReplacementError)?.errorDescription?.contains("No such file or directory") == true
    }
    #expect(try String(contentsOf: destination, encoding: .utf8) == "kept")
  }

  private static func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}
