import Foundation
import SpeechRecognition

/// One voice heard in a note: its number in the transcript, its voice embedding, and the named
/// voice of the library it is (when the person named it, or the library recognised it).
public struct NoteSpeaker: Codable, Sendable, Equatable {
  /// The index the note's segments use (``Transcript/Segment/speaker``), from 0.
  public var index: Int
  /// The voice, pooled over the speaker's turns in this note.
  public var embedding: SpeakerEmbedding
  /// Seconds of speech by this speaker in the note.
  public var duration: Double
  /// The library's named voice this speaker is, or nil when it is not known.
  public var voiceID: String?
  /// The named voice's name, filled in when the note is read; nil when not known.
  public var name: String?
  /// Whether the person said who this is (named the speaker, or said it is nobody known), so the
  /// label is theirs rather than the library's automatic match.
  public var isConfirmed: Bool

  /// A speaker found in a note, not yet known.
  public init(
    index: Int, embedding: SpeakerEmbedding, duration: Double, voiceID: String? = nil, name: String? = nil,
    isConfirmed: Bool = false
  ) {
    self.index = index
    self.embedding = embedding
    self.duration = duration
    self.voiceID = voiceID
    self.name = name
    self.isConfirmed = isConfirmed
  }

  /// The number people see and type: 1 for the first speaker.
  public var number: Int { index + 1 }

  /// What the transcript shows: the voice's name, else "Speaker 2".
  public var label: String { name ?? Self.defaultLabel(index: index) }

  /// "Speaker 2" for index 1: the label of a speaker nobody has named.
  public static func defaultLabel(index: Int) -> String { "Speaker \(index + 1)" }
}

extension Array where Element == NoteSpeaker {
  /// Each speaker's label by index, for writers and the analysis.
  public var labels: [Int: String] {
    Dictionary(map { ($0.index, $0.label) }, uniquingKeysWith: { first, _ in first })
  }
}
