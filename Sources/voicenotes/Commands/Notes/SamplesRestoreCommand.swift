import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes samples restore`: import the sample recordings that are not in the library yet.
struct SamplesRestoreCommand: ParsableCommand {
  static let from = Option<String>(
    "from", value: "folder", help: "Where the samples are (default: Samples/ of this checkout).")

  static let configuration = CommandConfiguration(
    name: "restore", abstract: "Import the bundled sample recordings that the library does not have.",
    options: [from, LibraryOption.noProcess, OutputOptions.json, OutputOptions.quiet, LibraryOption.option],
    examples: [Example("voicenotes samples restore --no-process", "Add the samples without processing them yet.")])

  let folder: URL
  let process: Bool
  let json: Bool
  let quiet: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    folder =
      try input.value(Self.from).map { URL(fileURLWithPath: $0, isDirectory: true) } ?? LibraryOption.bundledSamples
    process = !input.isSet(LibraryOption.noProcess)
    json = input.isSet(OutputOptions.json)
    quiet = input.isSet(OutputOptions.quiet)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let app = try await LibraryOption.open(library)
    let progress = ProgressReporter(quiet: quiet)
    let (imported, present) = try await app.restoreSamples(from: folder)
    if imported.isEmpty { progress.finish("All \(present) samples are in the library.") }
    for note in imported { progress.finish("saved \(note.originalFileName) as note \(note.id.prefix(8))") }
    let failures = process ? try await LibraryOption.process(imported, in: app, progress: progress) : 0
    try await LibraryOption.printNotes(imported, in: app, json: json)
    if failures > 0 { throw CommandFailure(message: "\(failures) sample(s) failed", alreadyReported: true) }
  }
}
