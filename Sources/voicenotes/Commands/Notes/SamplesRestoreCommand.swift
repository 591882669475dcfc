import Foundation
import VoiceNotes

/// `voicenotes samples restore`: import the sample recordings that are not in the library yet.
struct SamplesRestoreCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "restore", abstract: "Import the bundled sample recordings that the library does not have.",
    options: [
      .option("from", value: "folder", help: "Where the samples are (default: Samples/ of this checkout)."),
      .flag("no-process", help: "Only save the notes."), .flag("quiet", short: "q", help: "Show no progress."),
      LibraryOption.spec,
    ])

  let folder: URL
  let process: Bool
  let quiet: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    folder = input.value("from").map { URL(fileURLWithPath: $0, isDirectory: true) } ?? LibraryOption.bundledSamples
    process = !input.flag("no-process")
    quiet = input.flag("quiet")
    library = LibraryOption.url(from: input)
  }

  func run() async throws {
    let app = try await LibraryOption.open(library)
    let progress = ProgressReporter(quiet: quiet)
    let (imported, present) = try await app.restoreSamples(from: folder)
    guard !imported.isEmpty else {
      print("All \(present) samples are in the library.")
      return
    }
    for note in imported { progress.finish("saved \(note.originalFileName) as note \(note.id.prefix(8))") }
    let failures = process ? try await LibraryOption.process(imported, in: app, progress: progress) : 0
    for note in imported { print(note.id.prefix(8)) }
    if failures > 0 { throw CommandFailure(message: "\(failures) sample(s) failed", alreadyReported: true) }
  }
}
