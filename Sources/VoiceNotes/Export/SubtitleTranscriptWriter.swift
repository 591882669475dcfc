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

  /// Creates a subtitle writer of `style`.
  public init(style: Style) { self.style = style }

  /// The transcript in this writer's format.
  public func render(_ transcript: Transcript) -> String {
    let separator = style == .srt ? "," : "."
    var output = style == .vtt ? "WEBVTT\n\n" : ""
    for (index, segment) in transcript.segments.enumerated() {
      if style == .srt { output += "\(index + 1)\n" }
      let start = Timecode.string(segment.start, separator: separator, alwaysHours: true)
      let end = Timecode.string(max(segment.end, segment.start), separator: separator, alwaysHours: true)
      output += "\(start) --> \(end)\n\(segment.text)\n\n"
    }
    return output
  }
}
