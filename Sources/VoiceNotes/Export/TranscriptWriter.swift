/// Renders a transcript as text in one output format.
public protocol TranscriptWriter: Sendable {
  /// The transcript as this format's text.
  func render(_ transcript: Transcript) -> String
}

/// The formats transcripts can be written in, by the name people type.
public enum TranscriptFormat: String, CaseIterable, Sendable {
  /// Plain text, one segment a line.
  case txt
  /// JSON with segments and words.
  case json
  /// SubRip subtitles.
  case srt
  /// WebVTT subtitles.
  case vtt

  /// The writer for this format; `timestamps` adds segment times to plain text, `words` each
  /// word's timing and confidence to JSON, `speakerLabels` names the speakers of labelled
  /// segments.
  public func writer(timestamps: Bool = false, words: Bool = false, speakerLabels: [Int: String] = [:])
    -> any TranscriptWriter
  {
    switch self {
    case .txt: PlainTextTranscriptWriter(timestamps: timestamps, speakerLabels: speakerLabels)
    case .json: JSONTranscriptWriter(includesWords: words, speakerLabels: speakerLabels)
    case .srt: SubtitleTranscriptWriter(style: .srt, speakerLabels: speakerLabels)
    case .vtt: SubtitleTranscriptWriter(style: .vtt, speakerLabels: speakerLabels)
    }
  }
}
