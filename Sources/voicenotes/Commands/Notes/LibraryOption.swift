import CommandLineParsing
import Foundation
import LanguageModels
import ModelSupport
import SpeechRecognition
import Synchronization
import VoiceNotes

/// `--library PATH`, shared by every command that reads or writes notes, and how commands open
/// the app core's ``Library``.
enum LibraryOption {
  /// The option's declaration.
  static let option = Option<String>(
    "library", value: "folder",
    help: "The notes library (default: $VOICENOTES_LIBRARY, $XDG_DATA_HOME/voicenotes or ~/.local/share/voicenotes).")

  /// How to put notes into an empty library, for the commands that find none.
  static let addNotesHint = "Add some with `voicenotes import FILE...` or `voicenotes samples restore`."

  /// `--no-process`: save notes without transcribing or analysing them now.
  static let noProcess = Flag("no-process", help: "Only save; transcribe and analyse later (`voicenotes resume`).")

  /// The library the input names, or the default one.
  static func url(from input: ParsedInput) throws(UsageError) -> URL {
    LibraryConfiguration.folder(path: try input.value(option))
  }

  /// The configuration for the library at `folder` (its servers from the environment and its
  /// settings file), with the bundled samples of this checkout.
  static func configuration(_ folder: URL) throws -> LibraryConfiguration {
    try LibraryConfiguration.reading(folder: folder, samplesFolder: bundledSamples)
  }

  /// `Samples/` of the checkout the program was built in.
  static var bundledSamples: URL {
    EngineHost.checkoutFolder("Samples") ?? URL(fileURLWithPath: "Samples", isDirectory: true)
  }

  /// Opens the library. Nothing is processed here: reading commands return at once, and
  /// unfinished notes are finished by `resume`, `import`, `retry` or a running `serve`.
  static func open(_ folder: URL) async throws -> Library {
    try await Library.open(try configuration(folder))
  }

  /// Opens a library that must already be there, for the commands that read or change notes: a
  /// folder named by `--library` or `VOICENOTES_LIBRARY` that holds no library is an error (a
  /// mistyped path would otherwise become a new, empty library), while the default library is
  /// made on first use, so a first `list` shows the empty state.
  static func openExisting(_ folder: URL) async throws -> Library {
    try requireExisting(folder)
    return try await open(folder)
  }

  /// Fails unless `folder` holds a library or is the default one (see ``openExisting(_:)``); a
  /// path that is a file is left to the store, which says so.
  static func requireExisting(_ folder: URL) throws {
    var isFolder: ObjCBool = false
    let isFile = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && !isFolder.boolValue
    let isDefault = folder.standardizedFileURL.path == NoteStore.defaultLibrary.standardizedFileURL.path
    guard isDefault || isFile || NoteStore.isLibrary(folder) else {
      throw CommandFailure(
        message: "there is no library at \(folder.path); check the path, or import a recording there to start one")
    }
  }

  /// The notes `ids` name (each an id or a unique prefix), each once, in order; fails on the
  /// first unknown id, before anything is done to any of them.
  static func notes(_ ids: [String], in library: Library) async throws -> [VoiceNote] {
    var notes: [VoiceNote] = []
    for id in ids {
      let note = try await library.note(id)
      if !notes.contains(where: { $0.id == note.id }) { notes.append(note) }
    }
    return notes
  }

  /// Prints `notes` as they are now (after processing) as JSON without transcripts, or their
  /// short ids one a line.
  static func printNotes(_ notes: [VoiceNote], in library: Library, json: Bool) async throws {
    guard json else {
      for note in notes { print(note.id.prefix(8)) }
      return
    }
    var current: [NoteJSON] = []
    for note in notes { current.append(NoteJSON((try? await library.note(note.id)) ?? note, detail: .overview)) }
    try OutputOptions.printJSON(current)
  }

  /// Installs the library's speech and language models when missing, with progress.
  static func ensureModels(_ library: Library, progress: ProgressReporter) async throws {
    for name in try await library.installMissingModels(progress: { progress.update($0, fraction: $1) }) {
      progress.finish("\(name): installed")
    }
  }

  /// Processes `notes` in the foreground (several at once when servers share the work), then any
  /// other unfinished note; reports each note's outcome and returns how many failed.
  static func process(_ notes: [VoiceNote], in library: Library, progress: ProgressReporter) async throws -> Int {
    guard !notes.isEmpty else { return 0 }
    try await ensureModels(library, progress: progress)
    let timings = Dictionary(uniqueKeysWithValues: notes.map { ($0.id, PipelineProgress(progress)) })
    let counts = Mutex((done: 0, failed: 0))
    let report: @Sendable (NotePipeline.Progress) -> Void = { update in timings[update.noteID]?.report(update) }
    try await library.process(notes, progress: report) { id, outcome in
      let position = counts.withLock { counts -> String in
        if case .failure = outcome { counts.failed += 1 } else { counts.done += 1 }
        return notes.count > 1 ? "[\(counts.done + counts.failed)/\(notes.count)] " : ""
      }
      switch outcome {
      case .success(let done):
        progress.finish(
          "\(position)\(done.id.prefix(8)) \(PipelineProgress.outcome(done)) \(timings[id]?.summary() ?? "")")
      case .failure(let error):
        progress.clear()
        CommandRunner.report(
          "\(position)note \(id.prefix(8)): \(FailureText.describe(error)); "
            + "run `voicenotes retry \(id.prefix(8))`")
      }
    }
    let failures = counts.withLock { $0.failed }
    let resumed = try await library.resumeUnfinished(progress: PipelineProgress(progress).report)
    if !resumed.processed.isEmpty { progress.finish("finished \(resumed.processed.count) interrupted note(s)") }
    ResumeCommand.report(resumed.failures, progress: progress)
    return failures + resumed.failures.count
  }
}
