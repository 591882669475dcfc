/// Writes a transcript as subtitles, one cue per segment, in SubRip or WebVTT form.
public struct SubtitleTranscriptWriter: TranscriptWriter {
  /// The subtitle dialect.
  public enum Style: Sendable {
    /// SubRip: numbered cues, comma before milliseconds.
    case srt
    /// WebVTT: a `WEBVTT` header, dot before milliseconds.
    case vtt
  }

  /// The dialect written.
  public var style: Style
  /// Each speaker's label by segment speaker index ("Priya", "Speaker 2"), put on the cues of
  /// labelled segments: WebVTT as a voice span (`<v Priya>`), SubRip before the text ("Priya: ").
  public var speakerLabels: [Int: String]

  /// Creates a subtitle writer of `style`, naming speakers with `speakerLabels`.
  public init(style: Style, speakerLabels: [Int: String] = [:]) {
    self.style = style
    self.speakerLabels = speakerLabels
  }

  /// The transcript in this writer's format.
  public func render(_ transcript: Transcript) -> String {
    let separator = style == .srt ? "," : "."
    var output = style == .vtt ? "WEBVTT\n\n" : ""
    for (index, segment) in transcript.segments.enumerated() {
      if style == .srt { output += "\(index + 1)\n" }
      let start = Timecode.string(segment.start, separator: separator, alwaysHours: true)
      let end = Timecode.string(max(segment.end, segment.start), separator: separator, alwaysHours: true)
      output += "\(start) --> \(end)\n\(cueText(segment))\n\n"
    }
    return output
  }

  /// A cue's text, with its speaker when the segment has one.
  private func cueText(_ segment: Transcript.Segment) -> String {
    guard let speaker = segment.speaker else { return segment.text }
    let label = speakerLabels[speaker] ?? NoteSpeaker.defaultLabel(index: speaker)
    let text = segment.text.trimmingCharacters(in: .whitespaces)
    switch style {
    case .srt: return "\(label): \(text)"
    case .vtt:
      let escaped = label.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;")
      return "<v \(escaped)>\(text)"
    }
  }
}
