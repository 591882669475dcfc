import Foundation

/// Writes a transcript as pretty-printed JSON: language, duration, text, segments and words.
public struct JSONTranscriptWriter: TranscriptWriter {
  /// Creates a JSON writer.
  public init() {}

  private struct Document: Encodable {
    var language: String?
    var duration: Double
    var text: String
    var segments: [Transcript.Segment]
  }

  /// The transcript in this writer's format.
  public func render(_ transcript: Transcript) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let document = Document(
      language: transcript.language, duration: transcript.duration, text: transcript.text,
      segments: transcript.segments)
    guard let data = try? encoder.encode(document) else { return "{}\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
