import Foundation

extension NoteStore {
  /// Saves a note made from text alone, as if `text` had been transcribed from a recording of
  /// it: one segment a sentence, timed at an even speaking rate. For evaluations and tests that
  /// need a library of known transcripts without recording them; the note has no audio file.
  ///
  /// The note starts at `stage` (by default waiting for its analysis), so the pipeline takes it
  /// from there.
  @discardableResult
  package func addTextNote(
    _ text: String, id: String = UUID().uuidString.lowercased(), createdAt: Date,
    stage: ProcessingState.Stage = .analyzing
  ) throws -> VoiceNote {
    let wordsPerSecond = 2.6
    var segments: [Transcript.Segment] = []
    var clock = 0.0
    for sentence in Self.sentences(of: text) {
      let length = Double(sentence.split(whereSeparator: \.isWhitespace).count) / wordsPerSecond
      segments.append(Transcript.Segment(text: sentence, start: clock, end: clock + length))
      clock += length + 0.3
    }
    var note = VoiceNote(
      id: id, createdAt: createdAt, duration: clock, audioFileName: "\(id).none", originalFileName: "\(id).txt")
    note.transcript = Transcript(duration: clock, segments: segments)
    note.processing = ProcessingState(stage: stage)
    try save(note)
    return note
  }

  /// `text` cut after each full stop, question or exclamation mark that ends a sentence.
  static func sentences(of text: String) -> [String] {
    var sentences: [String] = []
    var current = ""
    let characters = Array(text)
    for (index, character) in characters.enumerated() {
      current.append(character)
      let ends = ".?!".contains(character) && (index + 1 == characters.count || characters[index + 1] == " ")
      if ends {
        let trimmed = current.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty { sentences.append(trimmed) }
        current = ""
      }
    }
    let rest = current.trimmingCharacters(in: .whitespaces)
    if !rest.isEmpty { sentences.append(rest) }
    return sentences
  }
}
