import Foundation
import SpeechRecognition

extension Transcript.Segment {
  /// A segment from a final transcriber result; words come from its `audioTimeRange` runs.
  public init(_ result: SpeechTranscriber.Result) {
    var words: [Transcript.Word] = []
    for run in result.text.runs {
      guard let range = run.audioTimeRange else { continue }
      let text = String(result.text[run.range].characters).trimmingCharacters(in: .whitespaces)
      guard !text.isEmpty else { continue }
      words.append(
        Transcript.Word(
          text: text, start: range.start.seconds, end: range.end.seconds, confidence: run.transcriptionConfidence))
    }
    self.init(
      text: String(result.text.characters), start: result.range.start.seconds, end: result.range.end.seconds,
      words: words)
  }
}
