import Foundation

/// A recording and everything learned from it: the unit the app stores, searches and shows.
///
/// A note exists from the moment its audio is saved; transcription and analysis fill it in later,
/// and ``processing`` says how far that has got.
public struct VoiceNote: Identifiable, Codable, Sendable, Equatable {
  /// A stable identifier (a lowercase UUID); the command line accepts any unique prefix.
  public var id: String
  /// When the note was recorded or imported.
  public var createdAt: Date
  /// The recording's length, in seconds.
  public var duration: Double
  /// The audio file's name inside the library's `audio/` folder.
  public var audioFileName: String
  /// The name of the file the audio came from, for people to recognise.
  public var originalFileName: String
  /// The title: a date-and-time default until analysis suggests one, or what the person chose.
  public var title: String
  /// Whether the person chose the title (analysis then leaves it alone).
  public var hasCustomTitle: Bool
  /// The transcript with segment and word times, once transcribed.
  public var transcript: Transcript?
  /// A summary, once analysed.
  public var summary: String?
  /// Topics, once analysed.
  public var tags: [String]
  /// People named in the note, once analysed.
  public var people: [String]
  /// Things to do from the note.
  public var actionItems: [NoteActionItem]
  /// The voices told apart in the note, by the index its segments use; empty when the note has
  /// one voice or its speakers were not identified.
  public var speakers: [NoteSpeaker]
  /// How far processing has got, and the last failure.
  public var processing: ProcessingState

  /// A new note for audio saved as `audioFileName`, waiting to be transcribed.
  public init(
    id: String = UUID().uuidString.lowercased(), createdAt: Date = Date(), duration: Double, audioFileName: String,
    originalFileName: String
  ) {
    self.id = id
    self.createdAt = createdAt
    self.duration = duration
    self.audioFileName = audioFileName
    self.originalFileName = originalFileName
    self.title = Self.defaultTitle(for: createdAt)
    self.hasCustomTitle = false
    self.transcript = nil
    self.summary = nil
    self.tags = []
    self.people = []
    self.actionItems = []
    self.speakers = []
    self.processing = ProcessingState(stage: .transcribing)
  }

  /// "Note, 30 Nov 2026 at 14:05": the title before analysis.
  public static func defaultTitle(for date: Date) -> String {
    "Note, \(CalendarText.spoken(date))"
  }
}

/// A task taken from a note. Its identifier is made by the app, never by the model.
public struct NoteActionItem: Identifiable, Codable, Sendable, Equatable {
  /// A stable identifier (a lowercase UUID); the command line accepts any unique prefix.
  public var id: String
  /// Whether the task is done.
  public var isCompleted: Bool
  /// What to do.
  public var task: String
  /// People the task involves.
  public var people: [String]

  /// A task; a fresh identifier unless one is given.
  public init(
    id: String = UUID().uuidString.lowercased(), isCompleted: Bool = false, task: String, people: [String] = []
  ) {
    self.id = id
    self.isCompleted = isCompleted
    self.task = task
    self.people = people
  }
}

/// Where a note is in the pipeline: (recording →) saved → transcribing → identifying speakers →
/// analysing → done.
public struct ProcessingState: Codable, Sendable, Equatable {
  /// The step a note is waiting for (or `done`).
  public enum Stage: String, Codable, Sendable, CaseIterable {
    /// The audio is being recorded into the library. A note left here by a process that died is
    /// finished from the audio already written (its length set), then transcribed.
    case recording
    /// The audio is saved; the transcript is next.
    case transcribing
    /// The transcript is saved; telling its speakers apart is next (skipped when the speakers
    /// model is not installed or the library turns it off).
    case diarizing
    /// The transcript is saved; the analysis is next.
    case analyzing
    /// The analysis is saved; embedding the note's passages for search by meaning is next
    /// (skipped when the embedding model is not installed).
    case indexing
    /// Nothing left to do.
    case done
  }

  /// The next step.
  public var stage: Stage
  /// Why the last attempt at ``stage`` failed; nil when it has not failed. A failed note waits for
  /// `retry`; a note interrupted without an error (a killed process) resumes by itself.
  public var lastError: String?

  /// A state at `stage`, with an optional failure.
  public init(stage: Stage, lastError: String? = nil) {
    self.stage = stage
    self.lastError = lastError
  }

  /// Whether the pipeline should pick the note up on its own.
  public var needsWork: Bool { stage != .done && lastError == nil }
}
