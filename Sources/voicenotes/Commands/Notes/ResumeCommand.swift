import Foundation
import VoiceNotes

/// `voicenotes resume`: finish every note an interrupted run left behind, or that was saved
/// with `--no-process`.
struct ResumeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "resume", abstract: "Transcribe and analyse every unfinished note (interrupted, or saved with --no-process).",
    discussion:
      "Reading commands (list, show, search, tasks) never wait for processing; this does the waiting work. A running `voicenotes serve` does it by itself.",
    options: [.flag("quiet", short: "q", help: "Show no progress."), LibraryOption.spec])

  let quiet: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    quiet = input.flag("quiet")
    library = LibraryOption.url(from: input)
  }

  func run() async throws {
    let app = try await LibraryOption.open(library)
    let pending = try await app.store.notesNeedingWork()
    let progress = ProgressReporter(quiet: quiet)
    guard !pending.isEmpty else {
      progress.finish("Nothing to resume: every note is done or waiting for `voicenotes retry`.")
      return
    }
    try await LibraryOption.ensureModels(app, progress: progress)
    let finished = try await app.resumeUnfinished(progress: PipelineProgress.reporter(progress))
    if finished.isEmpty && !pending.isEmpty {
      progress.finish("another voicenotes process is working on this library; it will finish the notes")
    } else {
      progress.finish("finished \(finished.count) note(s)")
    }
  }
}
