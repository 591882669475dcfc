/// Writes a transcript as plain text: the words, or one timed line per segment.
public struct PlainTextTranscriptWriter: TranscriptWriter {
  /// Whether each segment line starts with `[start --> end]`.
  public var timestamps: Bool
  /// Each speaker's label by segment speaker index; a labelled transcript is written one line
  /// per turn, starting with who speaks ("Priya: …").
  public var speakerLabels: [Int: String]

  /// Creates a writer, with segment times when `timestamps` is true, naming speakers with
  /// `speakerLabels`.
  public init(timestamps: Bool = false, speakerLabels: [Int: String] = [:]) {
    self.timestamps = timestamps
    self.speakerLabels = speakerLabels
  }

  /// The transcript in this writer's format.
  public func render(_ transcript: Transcript) -> String {
    guard timestamps else { return transcript.speakerLabelledText(labels: speakerLabels) + "\n" }
    return transcript.segments.map { segment in
      let speaker = segment.speaker.map { "\(speakerLabels[$0] ?? NoteSpeaker.defaultLabel(index: $0)): " } ?? ""
      return "[\(Timecode.string(segment.start, separator: ".")) --> \(Timecode.string(segment.end, separator: "."))] "
        + "\(speaker)\(segment.text)\n"
    }.joined()
  }
}
