/// What a pass over the unfinished notes did (see ``NotePipeline/resumeUnfinished(progress:finished:)``).
public struct ResumeResult: Sendable {
  /// A note whose step failed, with the message recorded for it.
  public struct Failure: Sendable {
    /// The note's identifier.
    public var noteID: String
    /// What went wrong, in one line.
    public var message: String
    /// Whether the failure is stored on the note, which then waits for a retry; when it could
    /// not be stored (a full disk), the note is still unfinished and the next resume takes it.
    public var isRecorded: Bool
  }

  /// The notes processed to the end (or to where they wait for a language model).
  public var processed: [VoiceNote] = []
  /// The notes whose step failed; each waits for a retry.
  public var failures: [Failure] = []
  /// How many finished notes were added to the semantic index (notes from before it existed, or
  /// from before the embedding model was installed).
  public var indexed = 0
  /// Why adding those notes to the semantic index stopped, when it failed; the next pass tries again.
  public var indexingFailure: String?
  /// Whether another process was working on the library, so this pass did nothing.
  public var libraryBusy = false

  /// An empty result: nothing processed, nothing failed.
  public init() {}
}
