import Foundation

/// Writes a transcript as pretty-printed JSON: language, duration, text and segments, with each
/// segment's words only when asked for (they are most of the size).
public struct JSONTranscriptWriter: TranscriptWriter {
  /// Whether segments carry their words' timing and confidence.
  public var includesWords: Bool
  /// Each speaker's label by segment speaker index, written as a labelled segment's `speaker`
  /// ("Priya", "Speaker 2") beside its `speakerNumber` (from 1).
  public var speakerLabels: [Int: String]

  /// Creates a JSON writer; `includesWords` adds each word's timing and confidence.
  public init(includesWords: Bool = false, speakerLabels: [Int: String] = [:]) {
    self.includesWords = includesWords
    self.speakerLabels = speakerLabels
  }

  private struct Document: Encodable {
    var language: String?
    var duration: Double
    var text: String
    var segments: [Segment]
  }

  private struct Segment: Encodable {
    var text: String
    var start: Double
    var end: Double
    var words: [Transcript.Word]?
    var speaker: String?
    var speakerNumber: Int?
  }

  /// The transcript in this writer's format.
  public func render(_ transcript: Transcript) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let document = Document(
      language: transcript.language, duration: transcript.duration, text: transcript.text,
      segments: transcript.segments.map {
        Segment(
          text: $0.text, start: $0.start, end: $0.end, words: includesWords ? $0.words : nil,
          speaker: $0.speaker.map { speakerLabels[$0] ?? NoteSpeaker.defaultLabel(index: $0) },
          speakerNumber: $0.speaker.map { $0 + 1 })
      })
    guard let data = try? encoder.encode(document) else { return "{}\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
