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
    let app = try await LibraryOption.openExisting(library)
    let pending = try await app.store.notesNeedingWork()
    let progress = ProgressReporter(quiet: quiet)
    var result = ResumeResult()
    let unindexed = (try? await app.semanticIndex.coverage().missing) ?? 0
    if pending.isEmpty && unindexed == 0 {
      progress.finish("Nothing to resume: every note is done or waiting for `voicenotes retry`.")
    } else {
      if !pending.isEmpty { try await LibraryOption.ensureModels(app, progress: progress) }
      result = try await app.resumeUnfinished(progress: PipelineProgress(progress).report)
      if result.libraryBusy {
        progress.finish("another voicenotes process is working on this library; it will finish the notes")
      } else if !result.processed.isEmpty {
        progress.finish("finished \(result.processed.count) note(s)")
      }
      if result.indexed > 0 { progress.finish("indexed \(result.indexed) note(s) for search by meaning") }
      Self.report(result.failures, progress: progress)
    }
    if json {
      try OutputOptions.printJSON(result.processed.map { NoteJSON($0, detail: .overview) })
    } else {
      for note in result.processed { print(note.id.prefix(8)) }
    }
    if !result.failures.isEmpty {
      throw CommandFailure(message: "\(result.failures.count) note(s) could not be finished")
    }
    if let failure = result.indexingFailure {
      throw CommandFailure(message: "the notes could not be indexed for search by meaning: \(failure)")
    }
  }

  /// Prints one line for each note that failed, with the command that tries it again.
  static func report(_ failures: [ResumeResult.Failure], progress: ProgressReporter) {
    for failure in failures {
      progress.clear()
      let again = failure.isRecorded ? "voicenotes retry \(failure.noteID.prefix(8))" : "voicenotes resume"
      CommandRunner.report("note \(failure.noteID.prefix(8)): \(failure.message); then run `\(again)`")
    }
  }
}
