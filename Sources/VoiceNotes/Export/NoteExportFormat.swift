import Foundation

/// The files a note can be exported as.
public enum NoteExportFormat: String, CaseIterable, Sendable {
  /// The whole note as Markdown.
  case md
  /// The whole note as JSON.
  case json
  /// The transcript as plain text.
  case txt
  /// The transcript as SubRip subtitles.
  case srt
  /// The transcript as WebVTT subtitles.
  case vtt

  /// The media type of the file.
  public var mimeType: String {
    switch self {
    case .md: "text/markdown; charset=utf-8"
    case .json: "application/json; charset=utf-8"
    case .txt: "text/plain; charset=utf-8"
    case .srt: "application/x-subrip; charset=utf-8"
    case .vtt: "text/vtt; charset=utf-8"
    }
  }

  /// The file's text for `note`; JSON carries each word's timing and confidence only with
  /// `words`.
  ///
  /// - Throws: ``LibraryError/noTranscript(id:)`` for a transcript format when the note has none yet.
  public func render(_ note: VoiceNote, words: Bool = false) throws -> String {
    switch self {
    case .md: return NoteMarkdown.render(note)
    case .json: return try NoteMarkdown.json(NoteJSON(note, detail: words ? .words : .segments)) + "\n"
    case .txt, .srt, .vtt:
      guard let transcript = note.transcript else { throw LibraryError.noTranscript(id: note.id) }
      let format: TranscriptFormat = self == .txt ? .txt : self == .srt ? .srt : .vtt
      return format.writer(speakerLabels: note.speakers.labels).render(transcript)
    }
  }

  /// A file name for `note` in this format: its title made safe for any file system.
  public func fileName(for note: VoiceNote) -> String {
    let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " -_"))
    let cleaned = String(note.title.unicodeScalars.map { allowed.contains($0) ? Character($0) : " " })
      .split(separator: " ").joined(separator: " ")
    let stem = cleaned.isEmpty ? "note-\(note.id.prefix(8))" : String(cleaned.prefix(80))
    return "\(stem).\(rawValue)"
  }
}
