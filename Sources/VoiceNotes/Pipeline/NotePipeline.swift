import AudioIO
import Foundation
import LanguageModels
import SpeechRecognition
import Synchronization

/// Takes a recording from saved to transcribed to analysed, one stored step at a time.
///
/// A note is saved before any slow work starts, and its stage is stored after each step, so a
/// killed process loses nothing: ``resumeUnfinished(progress:)`` picks notes up where they
/// stopped. A failed step is recorded on the note with its message, and waits for ``retry(_:progress:)``.
/// The person's original file is only ever read.
public actor NotePipeline {
  /// What the pipeline reports while it works.
  public struct Progress: Sendable {
    /// The note being processed.
    public var noteID: String
    /// The note's title (the default until analysis names it).
    public var title: String
    /// The step under way.
    public var stage: ProcessingState.Stage
    /// How far the step has got, 0...1.
    public var fraction: Double
    /// During analysis, the tokens the language model has generated so far.
    public var tokens: Int? = nil
    /// Whether the step waits for another process to finish its work on the library.
    public var isWaitingForLibrary = false
  }

  /// The store notes are saved in.
  public nonisolated let store: NoteStore
  /// The transcribers (the local engine, or servers), each note's audio going to a free one.
  public nonisolated let transcription: WorkerPool<FileTranscriber>
  /// The analysers (one per language model backend), each transcript going to a free one.
  public nonisolated let analysis: WorkerPool<NoteAnalyzer>
  /// How many notes are worked on at once: one per worker when servers do the work, so each is
  /// kept busy; one at a time for the local engines alone, which share this machine's cores.
  public nonisolated let concurrentNotes: Int

  /// Where the speaker diarizer comes from: asked each time a note reaches the
  /// ``ProcessingState/Stage/diarizing`` stage, nil when speakers are not told apart (the
  /// speakers model is not installed, or the library turns it off); the stage is skipped then.
  public nonisolated let diarizer: @Sendable () throws -> (any SpeakerDiarizing)?

  /// Where the passage embedder comes from: asked each time a note reaches the
  /// ``ProcessingState/Stage/indexing`` stage, nil when the embedding model is not installed;
  /// the stage is skipped then.
  public nonisolated let embedder: @Sendable () throws -> (any PassageEmbedding)?

  /// The first transcriber.
  public nonisolated var transcriber: FileTranscriber { transcription.workers[0] }
  /// The first analyser.
  public nonisolated var analyzer: NoteAnalyzer { analysis.workers[0] }

  /// A pipeline saving into `store`, transcribing with `transcriber` and analysing with `analyzer`.
  public init(
    store: NoteStore, transcriber: FileTranscriber = FileTranscriber(), analyzer: NoteAnalyzer = NoteAnalyzer(),
    diarizer: (any SpeakerDiarizing)? = nil, embedder: (any PassageEmbedding)? = nil
  ) {
    self.init(
      store: store, transcribers: [transcriber], analyzers: [analyzer], diarizer: { diarizer },
      embedder: { embedder })
  }

  /// A pipeline that shares the work among `transcribers` and `analyzers` (each at least one),
  /// with up to `concurrentNotes` notes under way at once (by default one), telling speakers
  /// apart with what `diarizer` gives and embedding passages with what `embedder` gives
  /// (nothing by default).
  public init(
    store: NoteStore, transcribers: [FileTranscriber], analyzers: [NoteAnalyzer], concurrentNotes: Int? = nil,
    diarizer: @escaping @Sendable () throws -> (any SpeakerDiarizing)? = { nil },
    embedder: @escaping @Sendable () throws -> (any PassageEmbedding)? = { nil }
  ) {
    self.store = store
    self.diarizer = diarizer
    self.embedder = embedder
    transcription = WorkerPool(transcribers)
    analysis = WorkerPool(analyzers)
    self.concurrentNotes = max(concurrentNotes ?? 1, 1)
    lock = LibraryLock(file: store.library.appendingPathComponent(".processing.lock"))
  }

  /// Whether some analyser's language model can be used now.
  public nonisolated var canAnalyze: Bool { analysis.workers.contains { $0.model.isAvailable } }

  private let lock: LibraryLock

  /// Copies the audio file at `url` into the library unchanged and saves a new note for it,
  /// ready to transcribe. Fails, leaving nothing behind, when the file is not readable audio.
  ///
  /// - Parameter originalFileName: The name people know the recording by (an upload's name);
  ///   by default the file's own.
  public func importAudio(from url: URL, originalFileName: String? = nil, createdAt: Date? = nil) async throws
    -> VoiceNote
  {
    // A link is followed: the library keeps the audio itself, never a link that can dangle.
    let named = url
    let url = url.resolvingSymlinksInPath()
    let audio = try AudioFile(forReading: url)
    _ = try audio.read()  // decode once, so a damaged file is refused now rather than at transcription
    let id = UUID().uuidString.lowercased()
    let fileExtension = url.pathExtension.isEmpty ? "audio" : url.pathExtension.lowercased()
    let fileName = "\(id).\(fileExtension)"
    let destination = store.audioFolder.appendingPathComponent(fileName)
    let partial = store.audioFolder.appendingPathComponent(".\(fileName).partial")
    do {
      try? FileManager.default.removeItem(at: partial)
      try FileManager.default.copyItem(at: url, to: partial)
      try FileManager.default.moveItem(at: partial, to: destination)
    } catch {
      try? FileManager.default.removeItem(at: partial)
      throw PipelineError.copyFailed(path: url.path, detail: FileSystemFailure.reason(for: error))
    }
    let created =
      createdAt ?? (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? Date()
    let note = VoiceNote(
      id: id, createdAt: created, duration: audio.duration, audioFileName: fileName,
      originalFileName: originalFileName ?? named.lastPathComponent)
    do {
      try await store.save(note)
    } catch {
      try? FileManager.default.removeItem(at: destination)
      throw error
    }
    return note
  }

  /// Saves a new note for a recording already in the library's audio folder that no note refers
  /// to (``LibraryCheck``'s repair), ready to transcribe. The file is read, never changed.
  public func adoptAudio(named fileName: String) async throws -> VoiceNote {
    let url = store.audioFolder.appendingPathComponent(fileName)
    let audio = try AudioFile(forReading: url)
    _ = try audio.read()
    let created = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? Date()
    let note = VoiceNote(
      id: UUID().uuidString.lowercased(), createdAt: created, duration: audio.duration, audioFileName: fileName,
      originalFileName: fileName)
    try await store.save(note)
    return note
  }

  /// Starts recording a new note: creates its WAV file (in `format`) in the library's audio folder
  /// and saves the note at once, in the ``ProcessingState/Stage/recording`` stage. Append the
  /// audio to the returned recording as it comes, then ``NoteRecording/finish()`` it.
  ///
  /// - Parameter originalFileName: What the audio came from, for people to recognise (the file
  ///   played, or the microphone's name).
  /// - Throws: ``PipelineError/recordingFailed(path:detail:)`` when the file cannot be created,
  ///   or the store's error when the note cannot be saved (nothing is left behind then).
  public nonisolated func startRecording(
    originalFileName: String, format: AudioFormat = .speechAnalysis, createdAt: Date = Date()
  ) async throws -> NoteRecording {
    let id = UUID().uuidString.lowercased()
    let fileName = "\(id).wav"
    let url = store.audioFolder.appendingPathComponent(fileName)
    let writer: WAVWriter
    do {
      writer = try WAVWriter(url: url, format: format)
    } catch {
      throw PipelineError.recordingFailed(path: url.path, detail: error.errorDescription ?? "\(error)")
    }
    // Locked before the note exists, so no other process ever sees the note with its file unlocked.
    let lock = LibraryLock(file: url)
    var note = VoiceNote(
      id: id, createdAt: createdAt, duration: 0, audioFileName: fileName, originalFileName: originalFileName)
    note.processing = ProcessingState(stage: .recording)
    do {
      guard try lock.acquire(wait: false) else {
        throw PipelineError.lockFailed(path: url.path, detail: "another process holds the new file")
      }
      try await store.save(note)
    } catch {
      // Nothing has been recorded yet: the file holds only its header.
      try? writer.close()
      try? FileManager.default.removeItem(at: url)
      throw error
    }
    return NoteRecording(note: note, audioURL: url, writer: writer, store: store, lock: lock)
  }

  /// Runs the remaining steps of `note`, saving after each; a failure is recorded on the note
  /// and rethrown. Waits while another process is working on the library.
  @discardableResult
  public func process(_ note: VoiceNote, progress: @escaping @Sendable (Progress) -> Void = { _ in }) async throws
    -> VoiceNote
  {
    try acquireLock(for: note, progress: progress)
    defer { lock.release() }
    // Read again under the lock: another process may have done some or all of the work meanwhile,
    // and working from the older copy would do it twice and save an older state over the newer.
    guard let current = try await store.note(id: note.id) else {
      throw PipelineError.deletedWhileProcessing(id: note.id)
    }
    return try await processHoldingLock(current, progress: progress)
  }

  private func processHoldingLock(_ note: VoiceNote, progress: @escaping @Sendable (Progress) -> Void) async throws
    -> VoiceNote
  {
    // A recording under way belongs to the process recording it, which hands it on when it stops.
    if note.processing.stage == .recording, isBeingRecorded(note) { throw PipelineError.stillRecording(id: note.id) }
    var note = note
    while note.processing.stage != .done {
      let stage = note.processing.stage
      // Without a language model the note keeps its transcript and waits, unfailed, for one.
      if stage == .analyzing, !canAnalyze { break }
      let report: @Sendable (Double) -> Void = { [id = note.id, title = note.title] fraction in
        progress(Progress(noteID: id, title: title, stage: stage, fraction: fraction))
      }
      let reportAnalysis: @Sendable (NoteAnalyzer.Progress) -> Void = { [id = note.id, title = note.title] update in
        progress(Progress(noteID: id, title: title, stage: stage, fraction: update.fraction, tokens: update.tokens))
      }
      do {
        let speakers = stage == .diarizing ? try diarizer(for: note) : nil
        let embedder = stage == .indexing ? try self.embedder() : nil
        if stage == .diarizing, speakers == nil {
          // Nothing to tell apart, or no speakers model: the stage is skipped, unreported.
          note.processing.stage = .analyzing
        } else if stage == .indexing, embedder == nil {
          note.processing.stage = .done
        } else {
          report(0)
          switch stage {
          case .recording: try finishInterruptedRecording(&note)
          case .transcribing: try await transcribe(&note, progress: report)
          case .diarizing: if let speakers { try await diarize(&note, with: speakers, progress: report) }
          case .analyzing: try await analyze(&note, progress: reportAnalysis)
          case .indexing: if let embedder { try await index(&note, with: embedder, progress: report) }
          case .done: break
          }
        }
        note.processing.lastError = nil
      } catch {
        note.processing.lastError = FailureText.describe(error)
        try await saveKeepingUserChanges(&note)
        throw error
      }
      try await saveKeepingUserChanges(&note)
    }
    return note
  }

  /// Runs the remaining steps of each of `notes`, several at once when the pipeline has several
  /// workers (the transcription of one overlapping the analysis of another). Each outcome goes to
  /// `finished` as it comes; failures are recorded on their notes and do not stop the others.
  /// Waits while another process is working on the library.
  public func process(
    _ notes: [VoiceNote], progress: @escaping @Sendable (Progress) -> Void = { _ in },
    finished: @escaping @Sendable (String, Result<VoiceNote, any Error>) -> Void
  ) async throws {
    guard let first = notes.first else { return }
    try acquireLock(for: first, progress: progress)
    defer { lock.release() }
    await forEachConcurrently(notes) { pipeline, note in
      do {
        guard let current = try await pipeline.store.note(id: note.id) else {
          throw PipelineError.deletedWhileProcessing(id: note.id)
        }
        finished(note.id, .success(try await pipeline.processHoldingLock(current, progress: progress)))
      } catch {
        finished(note.id, .failure(error))
      }
    }
  }

  /// Takes the library's processing lock, saying first (as progress on `note`) when it has to
  /// wait for another process.
  private func acquireLock(for note: VoiceNote, progress: @Sendable (Progress) -> Void) throws {
    guard try !lock.acquire(wait: false) else { return }
    progress(
      Progress(
        noteID: note.id, title: note.title, stage: note.processing.stage, fraction: 0, isWaitingForLibrary: true))
    try lock.acquire()
  }

  /// Processes every note that an earlier, interrupted run left unfinished. Failures are
  /// recorded on their notes and do not stop the others; `finished` is told the identifier of
  /// each note attempted, whatever the outcome.
  ///
  /// Returns at once, having done nothing, while another process holds the library.
  @discardableResult
  public func resumeUnfinished(
    progress: @escaping @Sendable (Progress) -> Void = { _ in },
    finished: @escaping @Sendable (String) -> Void = { _ in }
  ) async throws -> ResumeResult {
    // Another live process is already working on this library; it will finish these notes.
    guard try lock.acquire(wait: false) else {
      var result = ResumeResult()
      result.libraryBusy = true
      return result
    }
    defer { lock.release() }
    let outcomes = Mutex(ResumeResult())
    await forEachConcurrently(try await store.notesNeedingWork()) { pipeline, note in
      // Read again: the note may have moved on since the list was made.
      guard let current = try? await pipeline.store.note(id: note.id), current.processing.needsWork else { return }
      if current.processing.stage == .recording, pipeline.isBeingRecorded(current) { return }
      if current.processing.stage == .analyzing, !pipeline.canAnalyze { return }
      do {
        let done = try await pipeline.processHoldingLock(current, progress: progress)
        outcomes.withLock { $0.processed.append(done) }
      } catch {
        let message = FailureText.describe(error)
        let recorded = (try? await pipeline.store.note(id: current.id))??.processing.lastError != nil
        outcomes.withLock {
          $0.failures.append(ResumeResult.Failure(noteID: current.id, message: message, isRecorded: recorded))
        }
      }
      finished(current.id)
    }
    var result = outcomes.withLock { $0 }
    do {
      result.indexed = try await indexMissingNotes(progress: progress)
    } catch {
      result.indexingFailure = FailureText.describe(error)
    }
    return result
  }

  /// Runs `body` for each of `notes`, at most ``concurrentNotes`` at once, in order of starting.
  private func forEachConcurrently(
    _ notes: [VoiceNote], _ body: @escaping @Sendable (isolated NotePipeline, VoiceNote) async -> Void
  ) async {
    await withTaskGroup(of: Void.self) { group in
      var pending = notes[...]
      for _ in 0..<concurrentNotes {
        guard let note = pending.popFirst() else { break }
        group.addTask { await body(self, note) }
      }
      while await group.next() != nil {
        guard let note = pending.popFirst() else { continue }
        group.addTask { await body(self, note) }
      }
    }
  }

  /// Clears a note's recorded failure and runs its remaining steps again.
  @discardableResult
  public func retry(_ note: VoiceNote, progress: @escaping @Sendable (Progress) -> Void = { _ in }) async throws
    -> VoiceNote
  {
    var note = note
    note.processing.lastError = nil
    try await store.save(note)
    return try await process(note, progress: progress)
  }

  /// Analyses the note again from its transcript (after a model change, say).
  @discardableResult
  public func reanalyze(_ note: VoiceNote, progress: @escaping @Sendable (Progress) -> Void = { _ in }) async throws
    -> VoiceNote
  {
    var note = note
    guard note.transcript != nil else { return try await process(note, progress: progress) }
    note.processing = ProcessingState(stage: .analyzing)
    try await store.save(note)
    return try await process(note, progress: progress)
  }

  /// Saves `note`, keeping what the person changed while the step ran (a rename, a ticked task),
  /// since steps can take minutes and other commands may edit the note meanwhile.
  ///
  /// - Throws: ``PipelineError/deletedWhileProcessing(id:)`` when the note was deleted meanwhile:
  ///   it stays deleted rather than coming back without its audio.
  private func saveKeepingUserChanges(_ note: inout VoiceNote) async throws {
    guard let stored = try await store.note(id: note.id) else {
      throw PipelineError.deletedWhileProcessing(id: note.id)
    }
    if stored.hasCustomTitle {
      note.title = stored.title
      note.hasCustomTitle = true
    }
    // Speakers named while the step ran keep their names (the same speakers: same embeddings).
    let named = Dictionary(stored.speakers.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
    for index in note.speakers.indices {
      guard let kept = named[note.speakers[index].index], kept.embedding == note.speakers[index].embedding,
        kept.isConfirmed || !note.speakers[index].isConfirmed
      else { continue }
      note.speakers[index] = kept
    }
    let completed = Dictionary(
      stored.actionItems.map { ($0.id, $0.isCompleted) }, uniquingKeysWith: { first, _ in first })
    for index in note.actionItems.indices {
      if let done = completed[note.actionItems[index].id] { note.actionItems[index].isCompleted = done }
    }
    // Checked again as it is written: a delete may have come in between.
    guard try await store.saveIfPresent(note) else { throw PipelineError.deletedWhileProcessing(id: note.id) }
  }

  // MARK: - Steps

  /// Whether the audio of `note` is being written right now by a live recording (its file is
  /// locked; the lock goes with the process, however it ends).
  nonisolated func isBeingRecorded(_ note: VoiceNote) -> Bool {
    let url = store.audioFolder.appendingPathComponent(note.audioFileName)
    guard FileManager.default.fileExists(atPath: url.path) else { return false }
    let probe = LibraryLock(file: url)
    guard let free = try? probe.acquire(wait: false) else { return false }
    if free { probe.release() }
    return !free
  }

  /// Finishes a recording whose process died: the note is the audio written so far (the file's
  /// header was kept current while recording), so its length is read from the file.
  private func finishInterruptedRecording(_ note: inout VoiceNote) throws {
    let audio = try AudioFile(forReading: store.audioFolder.appendingPathComponent(note.audioFileName))
    Self.markRecorded(&note, duration: audio.duration)
  }

  /// Moves a note whose recording has ended on to transcription, with its length set; a recording
  /// with no audio is done, with an empty transcript.
  static func markRecorded(_ note: inout VoiceNote, duration: Double) {
    note.duration = duration
    if duration > 0 {
      note.processing = ProcessingState(stage: .transcribing)
    } else {
      note.transcript = Transcript(duration: 0, segments: [])
      note.processing = ProcessingState(stage: .done)
    }
  }

  private func transcribe(_ note: inout VoiceNote, progress: @escaping @Sendable (Double) -> Void) async throws {
    let audio = store.audioFolder.appendingPathComponent(note.audioFileName)
    do {
      note.transcript = try await transcription.run(isRetryable: Self.isWorkerFailure) { transcriber in
        try await transcriber.transcribe(audio, progress: progress)
      }
      note.processing.stage = .diarizing
    } catch SpeechTranscriptionError.emptyResult {
      // Nothing was said: keep an empty transcript and skip the analysis.
      note.transcript = Transcript(duration: note.duration, segments: [])
      note.processing.stage = .done
    }
  }

  /// The diarizer for `note`'s speakers stage, or nil when the stage has nothing to do: no
  /// transcript with words, or no diarizer.
  private func diarizer(for note: VoiceNote) throws -> (any SpeakerDiarizing)? {
    guard let transcript = note.transcript, !transcript.segments.isEmpty else { return nil }
    return try diarizer()
  }

  /// Tells the note's speakers apart with `diarizer` and labels its segments with them,
  /// recognising voices the library knows by name; a note of one voice keeps its transcript as it
  /// was.
  private func diarize(
    _ note: inout VoiceNote, with diarizer: any SpeakerDiarizing, progress: @escaping @Sendable (Double) -> Void
  ) async throws {
    guard let transcript = note.transcript else {
      note.processing.stage = .analyzing
      return
    }
    let samples = try AudioFile(forReading: store.audioFolder.appendingPathComponent(note.audioFileName)).read()
      .samples
    let diarization = try await diarizer.diarize(samples, speakerCount: nil, progress: progress)
    let (labelled, speakers) = transcript.labelled(by: diarization)
    note.transcript = labelled
    note.speakers = VoiceMemory.recognise(speakers, among: try await store.voices())
    progress(1)
    note.processing.stage = .analyzing
  }

  /// Whether a transcription failure may be the transcriber's (a server gone, an engine error),
  /// so another transcriber may succeed: not when the audio is unreadable or holds no speech.
  nonisolated static func isWorkerFailure(_ error: any Error) -> Bool {
    if error is CancellationError || error is AudioIOError { return false }
    if case .emptyResult? = error as? SpeechTranscriptionError { return false }
    return true
  }

  private func analyze(_ note: inout VoiceNote, progress: @escaping @Sendable (NoteAnalyzer.Progress) -> Void)
    async throws
  {
    let text = note.transcript?.speakerLabelledText(labels: note.speakers.labels) ?? ""
    guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      note.processing.stage = .done
      return
    }
    let isConversation = note.transcript?.hasSpeakers == true
    let analysis = try await self.analysis.run { analyzer in
      try await analyzer.analyze(text, isConversation: isConversation, progress: progress)
    }
    if !note.hasCustomTitle { note.title = analysis.title }
    note.summary = analysis.summary
    note.tags = analysis.tags
    note.people = analysis.people
    // Keep the identifiers and completion of tasks that survive a re-analysis.
    let previous = Dictionary(
      note.actionItems.map { (NoteAnalyzer.fold($0.task), $0) }, uniquingKeysWith: { first, _ in first })
    note.actionItems = analysis.actionItems.map { item in
      if let kept = previous[NoteAnalyzer.fold(item.task)] {
        return NoteActionItem(
          id: kept.id, isCompleted: kept.isCompleted || item.isCompleted, task: item.task, people: item.people)
      }
      return NoteActionItem(isCompleted: item.isCompleted, task: item.task, people: item.people)
    }
    note.processing.stage = .indexing
  }

  /// Embeds the note's passages (see ``NotePassage/passages(of:)``) and stores them with the
  /// note's centroid, replacing its earlier ones.
  private func index(
    _ note: inout VoiceNote, with embedder: any PassageEmbedding, progress: @escaping @Sendable (Double) -> Void
  ) async throws {
    try await Self.index(note, with: embedder, in: store)
    progress(1)
    note.processing.stage = .done
  }

  /// Embeds `note`'s passages with `embedder` and stores them in `store`.
  static func index(_ note: VoiceNote, with embedder: any PassageEmbedding, in store: NoteStore) async throws {
    let passages = NotePassage.passages(of: note)
    let vectors = passages.isEmpty ? [] : try await embedder.embed(passages.map(\.text))
    try await store.savePassages(passages, vectors: vectors, model: embedder.modelName, of: note.id)
  }

  /// Adds to the semantic index every finished note it lacks, when there is an embedder; returns
  /// how many were added. The caller holds the library's lock.
  private func indexMissingNotes(progress: @escaping @Sendable (Progress) -> Void) async throws -> Int {
    guard let embedder = try embedder() else { return 0 }
    var indexed = 0
    for id in try await store.notesNeedingPassages(model: embedder.modelName) {
      guard let note = try await store.note(id: id) else { continue }
      progress(Progress(noteID: id, title: note.title, stage: .indexing, fraction: 0))
      try await Self.index(note, with: embedder, in: store)
      progress(Progress(noteID: id, title: note.title, stage: .indexing, fraction: 1))
      indexed += 1
    }
    return indexed
  }
}

/// Why the pipeline could not take a file in.
public enum PipelineError: Error, LocalizedError, Equatable {
  /// The audio could not be copied into the library.
  case copyFailed(path: String, detail: String)
  /// The library's processing lock could not be taken.
  case lockFailed(path: String, detail: String)
  /// A recording's audio file could not be created or written; what was written is kept.
  case recordingFailed(path: String, detail: String)
  /// The note is still being recorded by a running process.
  case stillRecording(id: String)
  /// The note was deleted (with its audio) while it was being recorded.
  case deletedWhileRecording(id: String)
  /// The note was deleted while a step ran on it; it stays deleted.
  case deletedWhileProcessing(id: String)

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .copyFailed(let path, let detail):
      "\(path): could not copy the recording into the library (\(detail)); check free space and permissions"
    case .lockFailed(let path, let detail):
      "\(path): could not lock the library for processing (\(detail)); check the folder's permissions"
    case .recordingFailed(let path, let detail):
      "\(path): could not write the recording (\(detail)); check free space and permissions (the audio "
        + "recorded so far is kept)"
    case .stillRecording(let id):
      "note \(id.prefix(8)) is still being recorded by another voicenotes process; stop that recording first"
    case .deletedWhileProcessing(let id):
      "note \(id.prefix(8)) was deleted while it was being processed; nothing more is done with it"
    case .deletedWhileRecording(let id):
      "note \(id.prefix(8)) was deleted, with its audio, while it was being recorded; record again to keep a note"
    }
  }
}
