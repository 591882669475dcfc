import Foundation
import LanguageModels
import SpeechRecognition
import VoiceNotes

/// `--library PATH`, shared by every command that reads or writes notes.
enum LibraryOption {
  /// The option's declaration.
  static let spec = OptionSpec.option(
    "library", value: "folder",
    help: "The notes library (default: $XDG_DATA_HOME/voicenotes or ~/.local/share/voicenotes).")

  /// The library the input names, or the default one.
  static func url(from input: ParsedInput) -> URL {
    if let path = input.value("library") { return URL(fileURLWithPath: path, isDirectory: true) }
    if let path = ProcessInfo.processInfo.environment["VOICENOTES_LIBRARY"], !path.isEmpty {
      return URL(fileURLWithPath: path, isDirectory: true)
    }
    return NoteStore.defaultLibrary
  }

  /// Opens the store and finishes any work an interrupted run left behind, with progress.
  static func open(_ library: URL, resume: Bool = true, quiet: Bool = false) async throws -> (NoteStore, NotePipeline) {
    let store = try NoteStore(library: library)
    let vocabulary = try await PersonalVocabulary.prepared(in: library)
    let pipeline = NotePipeline(store: store, transcriber: FileTranscriber(customLanguage: vocabulary))
    if resume, try await !store.notesNeedingWork().isEmpty {
      let progress = ProgressReporter(quiet: quiet)
      try await ensureModels(progress: progress)
      let finished = try await pipeline.resumeUnfinished(progress: PipelineProgress.reporter(progress))
      if !finished.isEmpty { progress.finish("finished \(finished.count) interrupted note(s)") }
    }
    return (store, pipeline)
  }

  /// Installs the default speech and language models when missing, with progress.
  static func ensureModels(progress: ProgressReporter) async throws {
    try await ModelsInstallCommand.ensureInstalled(.default, progress: progress)
    let weights = LanguageModelWeights.default
    if !weights.isInstalled() {
      try await weights.install { stage, fraction in progress.update(stage, fraction: fraction) }
      progress.finish("\(weights.name): installed")
    }
  }
}

/// Turns pipeline progress into progress lines.
enum PipelineProgress {
  static func reporter(_ progress: ProgressReporter) -> @Sendable (NotePipeline.Progress) -> Void {
    { update in
      progress.update("\(update.noteID.prefix(8)) \(NoteFormatting.step(update.stage))", fraction: update.fraction)
    }
  }
}
