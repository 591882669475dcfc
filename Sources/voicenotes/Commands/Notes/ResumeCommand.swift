import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes resume`: finish every note an interrupted run left behind, or that was saved
/// with `--no-process`.
struct ResumeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "resume", abstract: "Transcribe and analyse every unfinished note (interrupted, or saved with --no-process).",
    discussion:
      "Reading commands (list, show, search, tasks) never wait for processing; this does the waiting work. A running `voicenotes serve` does it by itself.",
    options: [OutputOptions.json, OutputOptions.quiet, LibraryOption.option],
    examples: [Example("voicenotes import --no-process *.wav && voicenotes resume", "Save first, process after.")])

  let json: Bool
  let quiet: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    json = input.isSet(OutputOptions.json)
    quiet = input.isSet(OutputOptions.quiet)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let app = try await LibraryOption.open(library)
    let pending = try await app.store.notesNeedingWork()
    let progress = ProgressReporter(quiet: quiet)
    var finished: [VoiceNote] = []
    if pending.isEmpty {
      progress.finish("Nothing to resume: every note is done or waiting for `voicenotes retry`.")
    } else {
      try await LibraryOption.ensureModels(app, progress: progress)
      finished = try await app.resumeUnfinished(progress: PipelineProgress(progress).report)
      if finished.isEmpty {
        progress.finish("another voicenotes process is working on this library; it will finish the notes")
      } else {
        progress.finish("finished \(finished.count) note(s)")
      }
    }
    if json {
      try OutputOptions.printJSON(finished.map { NoteJSON($0, detail: .overview) })
    } else {
      for note in finished { print(note.id.prefix(8)) }
    }
  }
}
