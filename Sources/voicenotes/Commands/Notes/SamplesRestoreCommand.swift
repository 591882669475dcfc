import Foundation
import ModelSupport
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
    folder = input.value("from").map { URL(fileURLWithPath: $0, isDirectory: true) } ?? Self.bundledSamples
    process = !input.flag("no-process")
    quiet = input.flag("quiet")
    library = LibraryOption.url(from: input)
  }

  /// `Samples/` of the checkout the program was built in.
  static var bundledSamples: URL {
    EngineHost.checkoutFolder("Samples") ?? URL(fileURLWithPath: "Samples", isDirectory: true)
  }

  func run() async throws {
    let files =
      (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil))?
      .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.lastPathComponent < $1.lastPathComponent } ?? []
    guard !files.isEmpty else {
      throw CommandFailure(message: "\(folder.path): no sample recordings there; pass --from FOLDER")
    }
    let (store, _) = try await LibraryOption.open(library, resume: false, quiet: quiet)
    let present = Set(try await store.allNotes().map(\.originalFileName))
    let missing = files.filter { !present.contains($0.lastPathComponent) }
    guard !missing.isEmpty else {
      print("All \(files.count) samples are in the library.")
      return
    }
    var arguments = missing.map(\.path) + ["--library", library.path]
    if !process { arguments.append("--no-process") }
    if quiet { arguments.append("--quiet") }
    try await ImportCommand(
      ParsedInput.parse(arguments, for: ImportCommand.configuration, commandPath: "voicenotes import")
    ).run()
  }
}
