import Foundation
import Testing

@testable import VoiceNotes

@Test func tmpMakeBenchLibrary() async throws {
  let folder = URL(fileURLWithPath: "/tmp/nsbench")
  try? FileManager.default.removeItem(at: folder)
  let store = try NoteStore(library: folder)
  let start = Date()
  try await store.addSampleNotes(count: 100_000)
  print("inserted 100k in", Date().timeIntervalSince(start))
}
