import Foundation
import VoiceNotes

/// `voicenotes import`: save recordings as notes, then transcribe and analyse them.
struct ImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "import",
    abstract: "Import recordings as notes, then transcribe and analyse them.",
    discussion:
      "Each file is copied into the library unchanged and saved as a note at once; a file that is not audio is refused.",
    arguments: [ArgumentSpec(name: "file", help: "Audio files to import.", isRepeating: true)],
    options: [
      .flag("no-process", help: "Only save the notes; transcribe and analyse later."),
      .flag("quiet", short: "q", help: "Show no progress."), LibraryOption.spec,
    ])

  let files: [String]
  let process: Bool
  let quiet: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    files = input.positionals
    process = !input.flag("no-process")
    quiet = input.flag("quiet")
    library = LibraryOption.url(from: input)
  }

  func run() async throws {
    let app = try await LibraryOption.open(library)
    let progress = ProgressReporter(quiet: quiet)
    var imported: [VoiceNote] = []
    var failures = 0
    for path in files {
      do {
        let note = try await app.importAudio(from: URL(fileURLWithPath: path))
        imported.append(note)
        progress.finish("saved \(URL(fileURLWithPath: path).lastPathComponent) as note \(note.id.prefix(8))")
      } catch {
        failures += 1
        CommandRunner.report((error as? LocalizedError)?.errorDescription ?? "\(error)")
      }
    }
    if process { failures += try await LibraryOption.process(imported, in: app, progress: progress) }
    for note in imported { print(note.id.prefix(8)) }
    if failures > 0 { throw CommandFailure(message: "\(failures) file(s) failed", alreadyReported: true) }
  }
}
