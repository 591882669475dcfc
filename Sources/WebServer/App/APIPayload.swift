import Foundation
import SpeechRecognition
import VoiceNotes

/// The JSON shapes of the web API (docs/web-api.md), built from the app core's types.
enum APIPayload {
  /// A note in a list, a search result or an event.
  struct NoteSummary: Encodable {
    var id: String
    var title: String
    var createdAt: Date
    var duration: Double
    var originalFileName: String
    var tags: [String]
    var state: String
    var stage: String
    @Nullable var progress: Double?
    @Nullable var error: String?

    init(_ note: VoiceNote, progress: Double?) {
      id = note.id
      title = note.title
      createdAt = note.createdAt
      duration = note.duration
      originalFileName = note.originalFileName
      tags = note.tags
      stage = note.processing.stage.rawValue
      state = Self.state(of: note.processing, isActive: progress != nil)
      error = note.processing.lastError
      self.progress = note.processing.lastError == nil ? progress : nil
    }

    /// What a person is shown: saved, transcribing, analysing, done, failed or recording.
    static func state(of processing: ProcessingState, isActive: Bool) -> String {
      if processing.lastError != nil { return "failed" }
      switch processing.stage {
      case .recording: return "recording"
      case .transcribing: return isActive ? "transcribing" : "saved"
      case .diarizing: return "speakers"
      case .analyzing: return "analysing"
      case .indexing: return "indexing"
      case .done: return "done"
      }
    }
  }

  /// An action item.
  struct ActionItem: Encodable {
    var id: String
    var task: String
    var people: [String]
    var done: Bool

    init(_ item: NoteActionItem) {
      id = item.id
      task = item.task
      people = item.people
      done = item.isCompleted
    }
  }

  /// A whole note.
  struct Note: Encodable {
    var summaryFields: NoteSummary
    @Nullable var summary: String?
    var people: [String]
    var hasCustomTitle: Bool
    var actionItems: [ActionItem]
    @Nullable var transcript: Transcript?
    var speakers: [Speaker]
    var audioURL: String

    init(_ note: VoiceNote, progress: Double?) {
      summaryFields = NoteSummary(note, progress: progress)
      summary = note.summary
      people = note.people
      hasCustomTitle = note.hasCustomTitle
      actionItems = note.actionItems.map(ActionItem.init)
      let labels = note.speakers.labels
      transcript = note.transcript.map { Transcript($0, labels: labels) }
      speakers = note.speakers.map(Speaker.init)
      audioURL = "/api/notes/\(note.id)/audio"
    }

    func encode(to encoder: any Encoder) throws {
      try summaryFields.encode(to: encoder)
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(_summary, forKey: .summary)
      try container.encode(people, forKey: .people)
      try container.encode(hasCustomTitle, forKey: .hasCustomTitle)
      try container.encode(actionItems, forKey: .actionItems)
      try container.encode(_transcript, forKey: .transcript)
      try container.encode(speakers, forKey: .speakers)
      try container.encode(audioURL, forKey: .audioURL)
    }

    private enum Keys: String, CodingKey {
      case summary, people, hasCustomTitle, actionItems, transcript, speakers, audioURL
    }
  }

  /// A speaker of a note: its number (from 1), what it reads as, the named voice when known.
  struct Speaker: Encodable {
    var number: Int
    var label: String
    @Nullable var name: String?
    var seconds: Double
    var confirmed: Bool

    init(_ speaker: NoteSpeaker) {
      number = speaker.number
      label = speaker.label
      name = speaker.name
      seconds = speaker.duration
      confirmed = speaker.isConfirmed
    }
  }

  /// A named voice of the library.
  struct Voice: Encodable {
    var id: String
    var name: String
    var notes: Int
    var createdAt: Date
    var updatedAt: Date

    init(_ voice: NamedVoice) {
      id = voice.id
      name = voice.name
      notes = voice.noteCount
      createdAt = voice.createdAt
      updatedAt = voice.updatedAt
    }
  }

  /// The library's named voices.
  struct Voices: Encodable {
    var speakers: [Voice]
  }

  /// A transcript with segment and word times (no confidences: the page does not show them).
  struct Transcript: Encodable {
    struct Word: Encodable {
      var text: String
      var start: Double
      var end: Double
    }
    struct Segment: Encodable {
      var start: Double
      var end: Double
      var text: String
      var words: [Word]
      @Nullable var speaker: String?
      @Nullable var speakerNumber: Int?
    }
    @Nullable var language: String?
    var duration: Double
    var segments: [Segment]

    init(_ transcript: VoiceNotes.Transcript, labels: [Int: String] = [:]) {
      language = transcript.language
      duration = transcript.duration
      segments = transcript.segments.map { segment in
        Segment(
          start: segment.start, end: segment.end, text: segment.text,
          words: segment.words.map { Word(text: $0.text, start: $0.start, end: $0.end) },
          speaker: segment.speaker.map { labels[$0] ?? NoteSpeaker.defaultLabel(index: $0) },
          speakerNumber: segment.speaker.map { $0 + 1 })
      }
    }
  }

  /// One page of the notes list.
  struct NotesPage: Encodable {
    var notes: [NoteSummary]
    @Nullable var next: String?
    var total: Int
  }

  /// A run of a search snippet: matched or not.
  struct SnippetRun: Encodable {
    var text: String
    var match: Bool
  }

  /// One search result.
  struct SearchHit: Encodable {
    var note: NoteSummary
    var field: String
    var snippet: [SnippetRun]
    @Nullable var segmentStart: Double?
  }

  /// The search answer.
  struct SearchResults: Encodable {
    var results: [SearchHit]
    /// How the search was done: hybrid, keyword or semantic.
    var mode: String
  }

  /// An answer from the note assistant.
  struct Answer: Encodable {
    var text: String
    var abstained: Bool
    var citations: [Citation]

    init(_ answer: NoteAnswer) {
      text = answer.text
      abstained = answer.isAbstention
      citations = answer.citations.map(Citation.init)
    }
  }

  /// A source an answer cites.
  struct Citation: Encodable {
    var number: Int
    var noteID: String
    var title: String
    var recordedAt: Date
    @Nullable var time: Double?
    var text: String

    init(_ citation: NoteCitation) {
      number = citation.number
      noteID = citation.noteID
      title = citation.title
      recordedAt = citation.recordedAt
      time = citation.time
      text = citation.text
    }
  }

  /// Action items of one note.
  struct TaskGroup: Encodable {
    var noteID: String
    var noteTitle: String
    var noteCreatedAt: Date
    var items: [ActionItem]
  }

  /// The action-items answer.
  struct Tasks: Encodable {
    var groups: [TaskGroup]
    var people: [String]
  }

  /// A ticked or unticked item.
  struct TaskChange: Encodable {
    var noteID: String
    var item: ActionItem
  }

  /// A model and its state.
  struct Model: Encodable {
    var name: String
    var summary: String
    var size: Int64
    var status: String
  }

  /// The models answer.
  struct Models: Encodable {
    struct Defaults: Encodable {
      var speech: String
      var language: String
    }
    var speech: [Model]
    var language: [Model]
    var speakers: [Model]
    var embedding: [Model]
    var defaults: Defaults
  }

  /// The server's state.
  struct Status: Encodable {
    struct SpeechModelState: Encodable {
      var name: String
      var status: String
    }
    struct LanguageModelState: Encodable {
      var name: String
      var status: String
      var available: Bool
      @Nullable var reason: String?
    }
    struct Worker: Encodable {
      var busy: Bool
      @Nullable var noteID: String?
    }
    var version: String
    var library: String
    var noteCount: Int
    var speechModel: SpeechModelState
    var languageModel: LanguageModelState
    var worker: Worker
    var tokenRequired: Bool
  }

  /// A recording just started.
  struct RecordingStarted: Encodable {
    var recordingID: String
    var note: NoteSummary
    var sampleRate: Int
    var channels: Int
    var encoding: String
  }

  /// Restored samples.
  struct SamplesRestored: Encodable {
    var imported: [NoteSummary]
    var alreadyPresent: Int
  }

  /// A live transcript result.
  struct Live: Encodable {
    var recordingID: String
    var final: Bool
    var start: Double
    var end: Double
    var text: String
  }

  /// A model install's progress.
  struct ModelProgress: Encodable {
    var name: String
    var status: String
    var stage: String
    var fraction: Double
  }

  /// Encodes any payload as the API's JSON.
  static func encode(_ value: some Encodable) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    // Formatted by hand (see CalendarText): Foundation's date formatting is slow on Linux.
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(CalendarText.iso8601(date))
    }
    return (try? encoder.encode(value)) ?? Data("{}".utf8)
  }
}
