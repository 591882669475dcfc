import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes retry`: run a failed note's remaining steps again.
struct RetryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "retry", abstract: "Run the failed or unfinished steps of a note again.",
    discussion: "A note that is done has nothing to retry: `voicenotes analyze ID` analyses it again.",
    arguments: [ArgumentSpec(name: "id", help: "The note's id, or a unique prefix.")],
    options: [OutputOptions.json, OutputOptions.quiet, LibraryOption.option],
    examples: [Example("voicenotes retry 3f2a", "Transcribe or analyse a failed note again.")])

  let id: String
  let json: Bool
  let quiet: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals[0]
    json = input.isSet(OutputOptions.json)
    quiet = input.isSet(OutputOptions.quiet)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let app = try await LibraryOption.openExisting(library)
    let note = try await app.retry(id)
    let progress = ProgressReporter(quiet: quiet)
    try await LibraryOption.ensureModels(app, progress: progress)
    let timing = PipelineProgress(progress)
    let done = try await app.process(note, progress: timing.report)
    progress.finish("\(done.id.prefix(8)) \(PipelineProgress.outcome(done)) \(timing.summary())")
    if json {
      try OutputOptions.printJSON(NoteJSON(done, detail: .overview))
    } else {
      print(done.id.prefix(8))
    }
  }
}
