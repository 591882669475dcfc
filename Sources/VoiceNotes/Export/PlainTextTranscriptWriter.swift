/// Writes a transcript as plain text: the words, or one timed line per segment.
public struct PlainTextTranscriptWriter: TranscriptWriter {
  /// Whether each segment line starts with `[start --> end]`.
  public var timestamps: Bool

  /// Creates a writer, with segment times when `timestamps` is true.
  public init(timestamps: Bool = false) { self.timestamps = timestamps }

  /// The transcript in this writer's format.
  public func render(_ transcript: Transcript) -> String {
    guard timestamps else { return transcript.text + "\n" }
    return transcript.segments.map { segment in
      "[\(Timecode.string(segment.start, separator: ".")) --> \(Timecode.string(segment.end, separator: "."))] \(segment.text)\n"
    }.joined()
  }
}
