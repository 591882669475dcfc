/// The words of a note that an answer is drawn from: a stretch of transcript around a moment, or
/// the note's summary and action items.
enum NoteExcerpt {
  /// The most words a transcript excerpt holds.
  static let wordLimit = 90

  /// The excerpt shown for a search result. A match in the transcript is read around its
  /// moment. One in the summary or an action item is read as the whole transcript when it fits
  /// in an excerpt, since the summary is the model's retelling and the transcript what was said;
  /// in a longer note, around `closest`, the moment whose words are closest in meaning to the
  /// question, and as the summary and action items when there is none (no semantic index).
  static func matching(_ result: SearchResult, in note: VoiceNote, closest: Double?) -> (text: String, time: Double?) {
    if result.matchedField == .transcript { return around(result.time, in: note) }
    let whole = range(from: nil, to: nil, in: note)
    if whole.count == 1, let only = whole.first { return (only.text, only.time) }
    if let closest { return around(closest, in: note) }
    return (overview(of: note), nil)
  }

  /// The transcript around `time` (from the segment before the one at `time`, up to
  /// ``wordLimit`` words), or the summary with the action items when `time` is nil or the note
  /// has no transcript; the time the excerpt starts at.
  static func around(_ time: Double?, in note: VoiceNote) -> (text: String, time: Double?) {
    let segments = note.transcript?.segments ?? []
    guard let time, !segments.isEmpty else { return (overview(of: note), nil) }
    let at = segments.lastIndex { $0.start <= time + 0.01 } ?? 0
    var index = max(at - 1, 0)
    var words: [Substring] = []
    let start = segments[index].start
    while index < segments.count, words.count < wordLimit {
      let label = note.speakers.labels[segments[index].speaker ?? -1].map { "\($0): " } ?? ""
      words += (label + segments[index].text).split(whereSeparator: \.isWhitespace)
      index += 1
    }
    return (words.prefix(wordLimit).joined(separator: " "), start)
  }

  /// Transcript from `start` to `end` seconds (the whole of it when both are nil), as excerpts of
  /// up to ``wordLimit`` words, each with the time it starts.
  static func range(from start: Double?, to end: Double?, in note: VoiceNote) -> [(text: String, time: Double)] {
    let segments = (note.transcript?.segments ?? []).filter {
      $0.end > (start ?? -1) && $0.start < (end ?? .infinity)
    }
    var excerpts: [(text: String, time: Double)] = []
    var words: [Substring] = []
    var excerptStart = segments.first?.start ?? 0
    for segment in segments {
      if words.isEmpty { excerptStart = segment.start }
      let label = note.speakers.labels[segment.speaker ?? -1].map { "\($0): " } ?? ""
      words += (label + segment.text).split(whereSeparator: \.isWhitespace)
      if words.count >= wordLimit {
        excerpts.append((words.joined(separator: " "), excerptStart))
        words = []
      }
    }
    if !words.isEmpty { excerpts.append((words.joined(separator: " "), excerptStart)) }
    return excerpts
  }

  /// "Summary: … Action items: …; …", or the opening of the transcript when the note is not analysed.
  static func overview(of note: VoiceNote) -> String {
    var parts: [String] = []
    if let summary = note.summary, !summary.isEmpty { parts.append("Summary: \(summary)") }
    if !note.actionItems.isEmpty {
      parts.append(
        "Action items: "
          + note.actionItems.map { $0.task + ($0.isCompleted ? " (done)" : "") }.joined(separator: "; "))
    }
    if parts.isEmpty, let text = note.transcript?.text {
      parts.append(text.split(whereSeparator: \.isWhitespace).prefix(wordLimit).joined(separator: " "))
    }
    return parts.joined(separator: " ")
  }
}
