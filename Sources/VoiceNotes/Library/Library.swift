import AudioIO
import Foundation
import LanguageModels
import SpeechRecognition
import Synchronization

/// The voice-notes app's core: one library of notes and every operation on it, so that the
/// command line and the web server are thin layers over the same calls.
///
/// Reading (``page(after:limit:)``, ``note(_:)``, ``search(_:scope:limit:)``,
/// ``actionItems(includeCompleted:person:)``) never waits on transcription or analysis. Work
/// is done either in the foreground (``process(_:progress:)``, for the command line) or by the
/// background worker (``startWorker()``, for the server), which picks up every unfinished note,
/// including those another process left behind. Changes are published on ``events``.
///
/// ```swift
/// let library = try await Library.open(LibraryConfiguration(folder: NoteStore.defaultLibrary))
/// let note = try await library.importAudio(from: URL(fileURLWithPath: "memo.m4a"))
/// try await library.process(note) { print($0.stage, $0.fraction) }
/// ```
public actor Library {
  /// What was opened, with which models.
  public nonisolated let configuration: LibraryConfiguration
  /// The notes: the connection every write goes through.
  public nonisolated let store: NoteStore
  /// More connections to the same database, for reads only: SQLite in WAL mode reads on several
  /// connections at once, so searches and lists from many clients use every core.
  private nonisolated let readers: [NoteStore]
  private nonisolated let nextReader = Atomic<Int>(0)
  /// Transcribes and analyses.
  public nonisolated let pipeline: NotePipeline
  /// Every change, as it happens.
  public nonisolated let events = LibraryEventHub()
  /// Search by meaning over the notes' passages.
  public nonisolated let semanticIndex: SemanticIndex

  /// The note the worker is on, its step and how far it has got.
  private nonisolated let currentWork = Mutex<(id: String, stage: ProcessingState.Stage, fraction: Double)?>(nil)
  /// When progress was last published, to publish at most four times a second.
  private nonisolated let lastProgress = Mutex<ContinuousClock.Instant?>(nil)
  private var recordings: [String: RecordingSession] = [:]
  private var installing: Set<String> = []
  private var worker: Task<Void, Never>?
  private var watcher: Task<Void, Never>?
  private var wake: AsyncStream<Void>.Continuation?
  private var changeCounter: Int64 = 0
  /// Held while an import looks for the same recording and saves it (see ``importAudioUnlessPresent(from:)``).
  private lazy var importLock = LibraryLock(file: configuration.folder.appendingPathComponent(".import.lock"))

  private init(
    configuration: LibraryConfiguration, store: NoteStore, readers: [NoteStore], pipeline: NotePipeline,
    semanticIndex: SemanticIndex
  ) {
    self.configuration = configuration
    self.store = store
    self.readers = readers
    self.pipeline = pipeline
    self.semanticIndex = semanticIndex
  }

  /// Opens (creating as needed) the library `configuration` names, with the personal vocabulary
  /// compiled into the transcriber when there is one. `embedder` replaces the installed embedding
  /// model (for tests of the semantic index's logic).
  public static func open(
    _ configuration: LibraryConfiguration, embedder: (@Sendable () throws -> (any PassageEmbedding)?)? = nil
  ) async throws -> Library {
    let store = try NoteStore(library: configuration.folder)
    let vocabulary = try await PersonalVocabulary.prepared(in: configuration.folder)
    let transcribers = transcribers(configuration, vocabulary: vocabulary)
    let analyzers = analyzers(configuration)
    let usesServers = !configuration.transcriptionServers.isEmpty || !configuration.languageModelServers.isEmpty
    let embedder = embedder ?? passageEmbedder(configuration)
    let pipeline = NotePipeline(
      store: store, transcribers: transcribers, analyzers: analyzers,
      concurrentNotes: usesServers ? transcribers.count + analyzers.count : 1,
      diarizer: speakerDiarizer(configuration), embedder: embedder)
    let readers = try (0..<max(2, ProcessInfo.processInfo.activeProcessorCount)).map { _ in
      try NoteStore(library: configuration.folder)
    }
    let library = Library(
      configuration: configuration, store: store, readers: readers, pipeline: pipeline,
      semanticIndex: SemanticIndex(store: readers[0], embedder: embedder))
    await library.noteChangeCounter()
    return library
  }

  /// The library's transcribers: one per transcription server, else the local engine.
  private static func transcribers(
    _ configuration: LibraryConfiguration, vocabulary: SpeechLanguageModel.Configuration?
  ) -> [FileTranscriber] {
    guard !configuration.transcriptionServers.isEmpty else {
      return [FileTranscriber(model: configuration.speechModel, customLanguage: vocabulary)]
    }
    return configuration.transcriptionServers.map { server in
      FileTranscriber(
        model: configuration.speechModel, customLanguage: vocabulary,
        backend: OpenAITranscriptionBackend(endpoint: server))
    }
  }

  /// The analysers `configuration` asks for: one per language-model server, else its local model.
  public static func analyzers(_ configuration: LibraryConfiguration) -> [NoteAnalyzer] {
    guard !configuration.languageModelServers.isEmpty else {
      return [NoteAnalyzer(model: SystemLanguageModel(weights: configuration.languageModel))]
    }
    return configuration.languageModelServers.map { NoteAnalyzer(model: SystemLanguageModel(server: $0)) }
  }

  // MARK: - Reading

  /// A read-only connection, taken in turn.
  nonisolated var reader: NoteStore {
    readers[nextReader.add(1, ordering: .relaxed).oldValue % readers.count]
  }

  /// One page of notes, newest first, without transcripts.
  public nonisolated func page(after cursor: NotePage.Cursor? = nil, limit: Int = 50) async throws -> NotePage {
    try await reader.page(after: cursor, limit: limit)
  }

  /// The note whose identifier is `idOrPrefix` or starts with it.
  public nonisolated func note(_ idOrPrefix: String) async throws -> VoiceNote {
    try await reader.resolve(idOrPrefix)
  }

  /// The note with this exact identifier, without its transcript (for lists and events).
  public nonisolated func summary(of id: String) async throws -> VoiceNote? { try await reader.summary(id: id) }

  /// Action items across notes, grouped by note (see ``NoteStore/actionItems(includeCompleted:person:)``).
  public nonisolated func actionItems(includeCompleted: Bool = false, person: String? = nil) async throws
    -> [ActionItemGroup]
  {
    try await reader.actionItems(includeCompleted: includeCompleted, person: person)
  }

  /// Notes recorded from `start` up to `end`, oldest first, without their transcripts.
  public nonisolated func notes(recordedFrom start: Date, to end: Date, limit: Int = 50) async throws -> [VoiceNote] {
    try await reader.notes(recordedFrom: start, to: end, limit: limit)
  }

  /// How many notes the library holds.
  public nonisolated func count() async throws -> Int { try await reader.cachedCount() }

  /// Everyone named in an action item, sorted, for a person filter.
  public nonisolated func actionItemPeople() async throws -> [String] {
    var seen = Set<String>()
    var people: [String] = []
    for group in try await reader.actionItems(includeCompleted: true) {
      for person in group.items.flatMap(\.people) where seen.insert(person.lowercased()).inserted {
        people.append(person)
      }
    }
    return people.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }
  }

  /// The recording of `note`, in the library's audio folder.
  public nonisolated func audioURL(of note: VoiceNote) -> URL {
    store.audioFolder.appendingPathComponent(note.audioFileName)
  }

  /// How far the worker has got with `noteID`'s current step, or nil when it is not on it.
  public nonisolated func progress(of noteID: String) -> Double? {
    currentWork.withLock { $0?.id == noteID ? $0?.fraction : nil }
  }

  /// The note the worker is processing now, if any.
  public nonisolated var noteInProgress: String? { currentWork.withLock { $0?.id } }

  /// Every speech and language model with its state.
  public func models() -> [ModelStatus] {
    let directory = ModelDirectory.current
    let speech = SpeechModel.all.map { model in
      let state: ModelStatus.State =
        switch AssetInventory.status(of: model, in: directory) {
        case .installed: .installed
        case .downloading: .downloading
        default: installing.contains(model.name) ? .downloading : .supported
        }
      return ModelStatus(
        name: model.name, kind: .speech, summary: model.summary, size: model.approximateSize, state: state,
        isDefault: model == configuration.speechModel)
    }
    func state(installed: Bool, beingInstalled: Bool, name: String) -> ModelStatus.State {
      installed ? .installed : (beingInstalled || installing.contains(name)) ? .downloading : .supported
    }
    let language = LanguageModelWeights.all.map { weights in
      let state = state(
        installed: weights.isInstalled(in: directory), beingInstalled: weights.isBeingInstalled(in: directory),
        name: weights.name)
      return ModelStatus(
        name: weights.name, kind: .language, summary: weights.summary, size: weights.size, state: state,
        isDefault: weights == configuration.languageModel)
    }
    let speakers = SpeakerModel.all.map { model in
      let state = state(
        installed: model.isInstalled(in: directory), beingInstalled: model.isBeingInstalled(in: directory),
        name: model.name)
      return ModelStatus(
        name: model.name, kind: .speakers, summary: model.summary, size: model.approximateSize, state: state,
        isDefault: configuration.identifiesSpeakers && model == .default)
    }
    let embedding = EmbeddingModel.all.map { model in
      let state = state(
        installed: model.isInstalled(in: directory), beingInstalled: model.isBeingInstalled(in: directory),
        name: model.name)
      return ModelStatus(
        name: model.name, kind: .embedding, summary: model.summary, size: model.approximateSize, state: state,
        isDefault: model == .default)
    }
    return speech + language + speakers + embedding
  }

  /// Whether the language model can analyse now, and why not.
  public nonisolated var languageModelAvailability: SystemLanguageModel.Availability {
    languageModel.availability
  }

  /// Why the language model cannot analyse now and what to do; nil when it can. The library
  /// says what is missing; for local weights that are not installed this adds the command.
  public nonisolated var languageModelExplanation: String? {
    guard let explanation = languageModel.unavailabilityExplanation else { return nil }
    if languageModel.availability == .unavailable(.modelNotReady), let weights = languageModel.weights,
      !weights.isInstalled(in: languageModel.modelDirectory ?? .current)
    {
      return explanation + "; run `voicenotes models install \(weights.name)`"
    }
    return explanation
  }

  /// The model that analyses notes.
  public nonisolated var languageModel: SystemLanguageModel { pipeline.analyzer.model }

  // MARK: - Changing notes

  /// Copies the audio file at `url` into the library unchanged and saves a new note for it.
  /// The worker (when running) transcribes and analyses it.
  ///
  /// - Parameter originalFileName: The name to show (an upload's name); the file's own by default.
  public func importAudio(from url: URL, originalFileName: String? = nil) async throws -> VoiceNote {
    let note = try await pipeline.importAudio(from: url, originalFileName: originalFileName)
    events.publish(.noteChanged(note))
    wake?.yield()
    return note
  }

  /// Imports the recording at `url` unless the library already holds one byte for byte the same;
  /// returns the note, and whether it was there already. Two processes importing the same file
  /// at once make one note: the check and the import are done holding the library's import lock.
  public func importAudioUnlessPresent(from url: URL) async throws -> (note: VoiceNote, alreadyPresent: Bool) {
    try importLock.acquire()
    defer { importLock.release() }
    if let existing = try await noteWithSameAudio(as: url) { return (existing, true) }
    return (try await importAudio(from: url), false)
  }

  /// The note whose audio is byte for byte the file at `url` (following links), if the library
  /// holds one: so importing the same recording twice can be noticed.
  public nonisolated func noteWithSameAudio(as url: URL) async throws -> VoiceNote? {
    let source = url.resolvingSymlinksInPath()
    guard let size = try? source.resourceValues(forKeys: [.fileSizeKey]).fileSize else { return nil }
    let candidates =
      (try? FileManager.default.contentsOfDirectory(
        at: store.audioFolder, includingPropertiesForKeys: [.fileSizeKey], options: [.skipsHiddenFiles])) ?? []
    var sourceData: Data?
    for candidate in candidates where (try? candidate.resourceValues(forKeys: [.fileSizeKey]).fileSize) == size {
      if sourceData == nil { sourceData = try Data(contentsOf: source, options: .alwaysMapped) }
      guard let data = try? Data(contentsOf: candidate, options: .alwaysMapped), data == sourceData else { continue }
      let id = candidate.deletingPathExtension().lastPathComponent
      if let note = try await reader.note(id: id) { return note }
    }
    return nil
  }

  /// Gives the note a title of the person's choosing, which analysis then keeps.
  public func rename(_ idOrPrefix: String, to title: String) async throws -> VoiceNote {
    // A title is one line of text: newlines, tabs and escape sequences' control characters
    // become spaces, so it cannot break a list or move a terminal's cursor.
    let title = title.withControlCharactersAsSpaces.split(separator: " ").joined(separator: " ")
    guard !title.isEmpty else { throw LibraryError.invalidTitle("the title is empty") }
    guard title.count <= 200 else { throw LibraryError.invalidTitle("the title has \(title.count) characters") }
    var note = try await store.resolve(idOrPrefix)
    note.title = title
    note.hasCustomTitle = true
    try await store.save(note)
    events.publish(.noteChanged(note))
    return note
  }

  /// Deletes the note and its audio.
  public func delete(_ idOrPrefix: String) async throws -> VoiceNote {
    let note = try await store.resolve(idOrPrefix)
    try await store.delete(id: note.id)
    events.publish(.noteDeleted(id: note.id))
    return note
  }

  /// Ticks or unticks the action item whose identifier is (or starts with) `idOrPrefix`; says
  /// whether it changed (ticking a done item changes nothing).
  @discardableResult
  public func setCompleted(_ completed: Bool, actionItem idOrPrefix: String) async throws -> (
    note: VoiceNote, item: NoteActionItem, changed: Bool
  ) {
    let result = try await store.setCompleted(completed, actionItem: idOrPrefix)
    if result.changed { events.publish(.noteChanged(result.note)) }
    return result
  }

  /// Clears the note's failure so its remaining steps run again: by the worker when it runs,
  /// or by ``process(_:progress:)``.
  ///
  /// - Throws: ``LibraryError/nothingToRetry(id:)`` when the note is done.
  public func retry(_ idOrPrefix: String) async throws -> VoiceNote {
    var note = try await store.resolve(idOrPrefix)
    guard note.processing.stage != .done else { throw LibraryError.nothingToRetry(id: note.id) }
    note.processing.lastError = nil
    try await store.save(note)
    events.publish(.noteChanged(note))
    wake?.yield()
    return note
  }

  /// Imports the bundled sample recordings that the library does not hold yet (by file name).
  ///
  /// - Returns: The notes added, and how many samples were already there.
  public func restoreSamples(from folder: URL? = nil) async throws -> (imported: [VoiceNote], alreadyPresent: Int) {
    guard let folder = folder ?? configuration.samplesFolder else {
      throw LibraryError.samplesMissing(path: "Samples")
    }
    let files =
      (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil))?
      .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.lastPathComponent < $1.lastPathComponent } ?? []
    guard !files.isEmpty else { throw LibraryError.samplesMissing(path: folder.path) }
    var imported: [VoiceNote] = []
    var present = 0
    for file in files {
      if try await store.hasNote(originalFileName: file.lastPathComponent) {
        present += 1
      } else {
        imported.append(try await importAudio(from: file))
      }
    }
    return (imported, present)
  }

  // MARK: - Recording

  /// Starts recording a new note, saved at once; its audio is written to the library as it comes.
  ///
  /// - Parameters:
  ///   - sourceName: What the audio comes from (a microphone's name, "browser microphone").
  ///   - liveTranscript: Whether to run a live transcript (its results are published as
  ///     ``LibraryEvent/live(recordingID:result:)`` events, and handed to `onLiveResult`). When
  ///     its model cannot load, the recording goes on without one and `onLiveFailure` says why.
  public func startRecording(
    sourceName: String, liveTranscript: Bool = true,
    onLiveResult: @escaping @Sendable (SpeechTranscriber.Result) -> Void = { _ in },
    onLiveFailure: @escaping @Sendable (String) -> Void = { _ in }
  ) async throws -> RecordingSession {
    var live: LiveTranscript?
    let recording = try await pipeline.startRecording(originalFileName: sourceName)
    if liveTranscript {
      do {
        try await ensureInstalled(configuration.liveModel)
        let id = recording.note.id
        live = try await LiveTranscript.start(
          model: configuration.liveModel,
          onResult: { [events] result in
            onLiveResult(result)
            events.publish(.live(recordingID: id, result: result))
          },
          onFailure: onLiveFailure)
      } catch {
        onLiveFailure(FailureText.describe(error))
      }
    }
    let note = recording.note
    let session = RecordingSession(recording: recording, live: live, sourceName: sourceName)
    recordings[session.id] = session
    events.publish(.noteChanged(note))
    return session
  }

  /// The recording under way with this identifier.
  ///
  /// - Throws: ``LibraryError/recordingNotFound(id:)``.
  public func recording(_ id: String) throws -> RecordingSession {
    guard let session = recordings[id] else { throw LibraryError.recordingNotFound(id: id) }
    return session
  }

  /// Stops the recording, saves the note's length and hands it to the worker.
  public func finishRecording(_ id: String) async throws -> VoiceNote {
    let session = try recording(id)
    recordings[id] = nil
    let note = try await session.finish()
    events.publish(.noteChanged(note))
    wake?.yield()
    return note
  }

  /// Stops every recording under way (the server is shutting down): each note keeps its audio
  /// and is processed by the next worker.
  public func finishAllRecordings() async {
    for id in recordings.keys { _ = try? await finishRecording(id) }
  }

  /// Stops every recording that has received no audio for `idle` (its sender went away).
  public func finishIdleRecordings(idle: Duration) async {
    for (id, session) in recordings {
      let last = await session.lastActivity
      if ContinuousClock.now - last > idle { _ = try? await finishRecording(id) }
    }
  }

  // MARK: - Processing

  /// Runs the note's remaining steps now, waiting while another process works on the library.
  /// A failure is recorded on the note and rethrown.
  @discardableResult
  public func process(
    _ note: VoiceNote, progress: @escaping @Sendable (NotePipeline.Progress) -> Void = { _ in }
  ) async throws -> VoiceNote {
    let reporter = progressReporter(forwardingTo: progress)
    defer { currentWork.withLock { $0 = nil } }
    do {
      let done = try await pipeline.process(note, progress: reporter)
      events.publish(.noteChanged(done))
      return done
    } catch {
      await publishNote(note.id)
      throw error
    }
  }

  /// Runs the remaining steps of each of `notes`, several at once when the library has several
  /// transcribers or language models (servers); each outcome goes to `finished` as it comes.
  /// Failures are recorded on their notes and do not stop the others.
  public func process(
    _ notes: [VoiceNote], progress: @escaping @Sendable (NotePipeline.Progress) -> Void = { _ in },
    finished: @escaping @Sendable (String, Result<VoiceNote, any Error>) -> Void
  ) async throws {
    let reporter = progressReporter(forwardingTo: progress)
    defer { currentWork.withLock { $0 = nil } }
    try await pipeline.process(notes, progress: reporter) { [weak self] id, outcome in
      // As for one note: the note done is published as it is, a failed one as stored.
      switch outcome {
      case .success(let done): self?.events.publish(.noteChanged(done))
      case .failure: Task { await self?.publishNote(id) }
      }
      finished(id, outcome)
    }
  }

  /// Processes every unfinished note (those an interrupted run left, or saved without
  /// processing), unless another process is working on the library. Returns what was done.
  @discardableResult
  public func resumeUnfinished(
    progress: @escaping @Sendable (NotePipeline.Progress) -> Void = { _ in }
  ) async throws -> ResumeResult {
    let reporter = progressReporter(forwardingTo: progress)
    defer { currentWork.withLock { $0 = nil } }
    let finished: @Sendable (String) -> Void = { [weak self] id in
      Task { await self?.publishNote(id) }
    }
    return try await pipeline.resumeUnfinished(progress: reporter, finished: finished)
  }

  /// Installs the library's speech and language models when they are missing, reporting each
  /// stage and fraction. Returns the names of the models installed.
  @discardableResult
  public func installMissingModels(progress: @escaping @Sendable (String, Double) -> Void = { _, _ in }) async throws
    -> [String]
  {
    var installed: [String] = []
    if try await ensureInstalled(configuration.speechModel, progress: progress) {
      installed.append(configuration.speechModel.name)
    }
    if try await ensureInstalled(configuration.languageModel, progress: progress) {
      installed.append(configuration.languageModel.name)
    }
    return installed
  }

  /// Starts installing the model called `name` in the background; progress is published as
  /// ``LibraryEvent/model(name:status:stage:fraction:)`` events.
  ///
  /// - Throws: ``LibraryError/unknownModel(name:known:)``.
  public func startInstalling(_ name: String) throws {
    let speech = try? SpeechModel.named(name)
    let language = try? LanguageModelWeights.named(name)
    let speakers = try? SpeakerModel.named(name)
    let embedding = try? EmbeddingModel.named(name)
    guard speech != nil || language != nil || speakers != nil || embedding != nil else {
      throw LibraryError.unknownModel(
        name: name,
        known: SpeechModel.all.map(\.name) + LanguageModelWeights.all.map(\.name) + SpeakerModel.all.map(\.name)
          + EmbeddingModel.all.map(\.name))
    }
    guard installing.insert(name).inserted else { return }
    events.publish(.model(name: name, status: .downloading, stage: "starting", fraction: 0))
    Task {
      let report: @Sendable (String, Double) -> Void = { [events] stage, fraction in
        events.publish(.model(name: name, status: .downloading, stage: stage, fraction: fraction))
      }
      do {
        if let speech { try await ensureInstalled(speech, progress: report) }
        if let language { try await ensureInstalled(language, progress: report) }
        if let speakers { try await Task.detached { try speakers.install(progress: report) }.value }
        if let embedding { try await Task.detached { try embedding.install(progress: report) }.value }
        events.publish(.model(name: name, status: .installed, stage: "installed", fraction: 1))
      } catch {
        let message = FailureText.describe(error)
        events.publish(.model(name: name, status: .supported, stage: message, fraction: 0))
      }
      installDone(name)
    }
  }

  private func installDone(_ name: String) {
    installing.remove(name)
    wake?.yield()
  }

  /// Installs a speech model when missing; returns whether it installed anything.
  @discardableResult
  private func ensureInstalled(_ model: SpeechModel, progress: (@Sendable (String, Double) -> Void)? = nil)
    async throws -> Bool
  {
    guard let request = AssetInventory.assetInstallationRequest(for: model) else { return false }
    try await request.downloadAndInstall(progressHandler: progress)
    return true
  }

  /// Installs language model weights when missing; returns whether it installed anything.
  @discardableResult
  private func ensureInstalled(_ weights: LanguageModelWeights, progress: @escaping @Sendable (String, Double) -> Void)
    async throws -> Bool
  {
    guard !weights.isInstalled() else { return false }
    try await weights.install(progress: progress)
    return true
  }

  // MARK: - The worker

  /// Starts the background worker: it processes every unfinished note now, whenever a note is
  /// added, retried or recorded, and every few seconds (to pick up notes other processes left);
  /// it installs missing default models first. It also watches for changes made by other
  /// processes and publishes ``LibraryEvent/externalChange``.
  public func startWorker() {
    guard worker == nil else { return }
    let (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    wake = continuation
    continuation.yield()
    worker = Task { [weak self] in
      for await _ in signals {
        guard let self, !Task.isCancelled else { return }
        await self.runWorkerPass()
      }
    }
    watcher = Task { [weak self] in
      var ticks = 0
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(500))
        guard let self else { return }
        ticks += 1
        let changed = await self.noteChangeCounter()
        if changed { self.events.publish(.externalChange) }
        if changed || ticks % 10 == 0 { await self.wakeWorker() }
        await self.finishIdleRecordings(idle: .seconds(30))
      }
    }
  }

  /// Stops the worker and the watcher; a step under way finishes first.
  public func stopWorker() async {
    watcher?.cancel()
    wake?.finish()
    await worker?.value
    worker = nil
    watcher = nil
    wake = nil
  }

  private func wakeWorker() { wake?.yield() }

  private func runWorkerPass() async {
    guard let pending = try? await store.notesNeedingWork(), !pending.isEmpty else { return }
    let report: @Sendable (String, Double) -> Void = { [events, configuration] stage, fraction in
      let name =
        stage.hasPrefix(configuration.languageModel.name)
        ? configuration.languageModel.name : configuration.speechModel.name
      events.publish(.model(name: name, status: .downloading, stage: stage, fraction: fraction))
    }
    do {
      // Notes stay saved when an install fails; the next pass tries again.
      try await ensureInstalled(configuration.speechModel, progress: report)
      if languageModelAvailability == .unavailable(.modelNotReady) {
        try await ensureInstalled(configuration.languageModel, progress: report)
      }
    } catch {
      return
    }
    _ = try? await resumeUnfinished()
  }

  /// Whether another process changed the database since the last call.
  @discardableResult
  private func noteChangeCounter() async -> Bool {
    guard let counter = try? await store.externalChangeCounter() else { return false }
    defer { changeCounter = counter }
    return counter != changeCounter
  }

  private func publishNote(_ id: String) async {
    if let note = try? await store.summary(id: id) { events.publish(.noteChanged(note)) }
  }

  /// Wraps `progress` so the worker's current note is known, and publishes progress events (and
  /// the note itself when a step starts), at most four times a second.
  private nonisolated func progressReporter(
    forwardingTo progress: @escaping @Sendable (NotePipeline.Progress) -> Void
  ) -> @Sendable (NotePipeline.Progress) -> Void {
    { [weak self] update in
      progress(update)
      guard let self else { return }
      let previous = self.currentWork.withLock { current in
        defer { current = (update.noteID, update.stage, update.fraction) }
        return current
      }
      let now = ContinuousClock.now
      let due = self.lastProgress.withLock { last in
        if let last, now - last < .milliseconds(250), update.fraction > 0, update.fraction < 1 { return false }
        last = now
        return true
      }
      if previous?.id != update.noteID || previous?.stage != update.stage {
        Task { await self.publishNote(update.noteID) }
      }
      if due {
        self.events.publish(.progress(noteID: update.noteID, stage: update.stage, fraction: update.fraction))
      }
    }
  }
}
