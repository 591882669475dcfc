import Foundation
import VoiceNotes

/// `voicenotes retry`: run a failed note's remaining steps again.
struct RetryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "retry", abstract: "Run the failed or unfinished steps of a note again.",
    arguments: [ArgumentSpec(name: "id", help: "The note's id, or a unique prefix.")],
    options: [.flag("quiet", short: "q", help: "Show no progress."), LibraryOption.spec])

  let id: String
  let quiet: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals[0]
    quiet = input.flag("quiet")
    library = LibraryOption.url(from: input)
  }

  func run() async throws {
    let app = try await LibraryOption.open(library)
    let note = try await app.retry(id)
    let progress = ProgressReporter(quiet: quiet)
    try await LibraryOption.ensureModels(app, progress: progress)
    let done = try await app.process(note, progress: PipelineProgress.reporter(progress))
    progress.finish("\(done.id.prefix(8)) \(PipelineProgress.outcome(done))")
  }
}
