import Foundation
import SpeechRecognition

extension Transcript {
  /// The transcript with each segment labelled with its speaker, and split where the speaker
  /// changes inside it, together with the speakers heard.
  ///
  /// Each word takes the speaker who talks most while it is said
  /// (``SpeakerDiarization/speaker(from:to:)``, over at most its first ``longestWord`` seconds); a segment whose words belong to several speakers
  /// is cut before the first word of each new speaker. Speakers are numbered again by when they
  /// first speak (the first voice heard is "Speaker 1"), and a speaker no word is given to is left
  /// out. With fewer than two speakers left, the transcript comes back unlabelled and the list is
  /// empty: a note of one voice reads as before.
  public func labelled(by diarization: SpeakerDiarization) -> (transcript: Transcript, speakers: [NoteSpeaker]) {
    var pieces: [Segment] = []
    for segment in segments { pieces += Self.split(segment, by: diarization) }
    var order: [Int] = []
    for speaker in pieces.compactMap(\.speaker) where !order.contains(speaker) { order.append(speaker) }
    var result = self
    guard order.count >= 2 else {
      result.segments = segments.map { segment in
        var segment = segment
        segment.speaker = nil
        return segment
      }
      return (result, [])
    }
    let number = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
    result.segments = pieces.map { piece in
      var piece = piece
      piece.speaker = piece.speaker.flatMap { number[$0] }
      return piece
    }
    let found = Dictionary(diarization.speakers.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
    let speakers = order.enumerated().map { newIndex, oldIndex in
      NoteSpeaker(
        index: newIndex, embedding: found[oldIndex]?.embedding ?? SpeakerEmbedding(values: []),
        duration: found[oldIndex]?.duration ?? 0)
    }
    return (result, speakers)
  }

  /// `segment` labelled, cut where its words change speaker.
  static func split(_ segment: Segment, by diarization: SpeakerDiarization) -> [Segment] {
    var segment = segment
    guard !segment.words.isEmpty else {
      segment.speaker = diarization.speaker(from: segment.start, to: segment.end)
      return [segment]
    }
    var labels = segment.words.map { diarization.speaker(from: $0.start, to: Self.spokenEnd(of: $0)) }
    // A word no turn covers (a pause the diarizer left out) belongs with the word before it, or
    // with the first labelled word when it opens the segment.
    let whole = diarization.speaker(from: segment.start, to: segment.end)
    var previous = labels.first { $0 != nil } ?? whole
    for index in labels.indices {
      if labels[index] == nil { labels[index] = previous } else { previous = labels[index] }
    }
    smoothIsolatedWords(&labels, words: segment.words)
    let runs = Self.runs(of: labels)
    guard runs.count > 1, let cuts = Self.textPositions(of: segment.words, in: segment.text) else {
      segment.speaker = Self.mostSpoken(labels, words: segment.words) ?? whole
      return [segment]
    }
    return runs.enumerated().map { offset, run in
      let from = offset == 0 ? segment.text.startIndex : cuts[run.lowerBound]
      let to = offset == runs.count - 1 ? segment.text.endIndex : cuts[runs[offset + 1].lowerBound]
      let text = String(segment.text[from..<to]).trimmingCharacters(in: .whitespaces)
      let words = Array(segment.words[run])
      return Segment(
        text: text, start: offset == 0 ? segment.start : words[0].start,
        end: offset == runs.count - 1 ? segment.end : words[words.count - 1].end, words: words,
        speaker: labels[run.lowerBound])
    }
  }

  /// The longest a word is taken to be heard for when telling whose it is.
  static let longestWord = 0.6

  /// Where `word` is taken to end when telling whose it is: at most ``longestWord`` after it
  /// starts. Whisper ends a segment's last word at the segment's closing time, which can reach
  /// across a pause into the next person's turn; the word is judged where it starts instead.
  private static func spokenEnd(of word: Word) -> Double {
    min(word.end, word.start + longestWord)
  }

  /// Gives a lone short word between two words of one other speaker to that speaker: a turn
  /// boundary a fraction of a second off should not make a one-word segment.
  private static func smoothIsolatedWords(_ labels: inout [Int?], words: [Word]) {
    guard labels.count >= 3 else { return }
    for index in 1..<(labels.count - 1)
    where labels[index] != labels[index - 1] && labels[index - 1] == labels[index + 1]
      && words[index].end - words[index].start < 0.5
    {
      labels[index] = labels[index - 1]
    }
  }

  /// The ranges of equal consecutive labels.
  private static func runs(of labels: [Int?]) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var start = 0
    for index in 1...labels.count where index == labels.count || labels[index] != labels[start] {
      runs.append(start..<index)
      start = index
    }
    return runs
  }

  /// Where each word starts in `text`, found in order; nil when a word is not there as written
  /// (the segment is then kept whole rather than cut at a guess).
  private static func textPositions(of words: [Word], in text: String) -> [String.Index]? {
    var cursor = text.startIndex
    var positions: [String.Index] = []
    for word in words {
      guard let found = text.range(of: word.text, range: cursor..<text.endIndex) else { return nil }
      positions.append(found.lowerBound)
      cursor = found.upperBound
    }
    return positions
  }

  /// The speaker whose words last longest.
  private static func mostSpoken(_ labels: [Int?], words: [Word]) -> Int? {
    var seconds: [Int: Double] = [:]
    for (label, word) in zip(labels, words) {
      if let label { seconds[label, default: 0] += max(word.end - word.start, 0.01) }
    }
    return seconds.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key
  }

  /// Whether segments carry speakers (the note has two or more voices).
  public var hasSpeakers: Bool { segments.contains { $0.speaker != nil } }

  /// The text with who says what, for the analysis: consecutive segments of one speaker joined
  /// on one line that starts with the speaker's label ("Priya: …", "Speaker 2: …"). The plain
  /// ``text`` when the segments carry no speakers.
  public func speakerLabelledText(labels: [Int: String]) -> String {
    guard hasSpeakers else { return text }
    var lines: [(speaker: Int?, text: String)] = []
    for segment in segments {
      if let last = lines.last, last.speaker == segment.speaker {
        lines[lines.count - 1].text += " " + segment.text.trimmingCharacters(in: .whitespaces)
      } else {
        lines.append((segment.speaker, segment.text.trimmingCharacters(in: .whitespaces)))
      }
    }
    return lines.map { line in
      guard let speaker = line.speaker else { return line.text }
      return "\(labels[speaker] ?? NoteSpeaker.defaultLabel(index: speaker)): \(line.text)"
    }.joined(separator: "\n")
  }
}
