import Foundation
import VoiceNotes

/// A transcript in the format an OpenAI client asked for: `json`, `text`, `verbose_json`, `srt`
/// or `vtt`.
struct OpenAITranscriptionResponse: Sendable {
  /// The transcript.
  var transcript: Transcript
  /// The request it answers.
  var format: OpenAITranscriptionRequest.ResponseFormat
  /// Whether verbose JSON lists the words.
  var includesWords: Bool

  /// The HTTP answer.
  var response: HTTPResponse {
    switch format {
    case .json:
      return .json(Self.encode(["text": text]))
    case .text:
      return Self.plain(text + "\n", type: "text/plain; charset=utf-8")
    case .srt:
      return Self.plain(SubtitleTranscriptWriter(style: .srt).render(transcript), type: "application/x-subrip")
    case .vtt:
      return Self.plain(SubtitleTranscriptWriter(style: .vtt).render(transcript), type: "text/vtt; charset=utf-8")
    case .verboseJSON:
      return .json(Self.encode(verbose))
    }
  }

  /// The whole text, segments joined by spaces.
  var text: String { transcript.segments.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }

  /// OpenAI's verbose transcription: language (its English name), duration, text, segments and
  /// (when asked for) words. Values this engine does not measure are null.
  var verbose: [String: Any] {
    var body: [String: Any] = [
      "task": "transcribe", "language": Self.languageName(transcript.language), "duration": transcript.duration,
      "text": text,
      "segments": transcript.segments.enumerated().map { index, segment -> [String: Any] in
        let confidences = segment.words.compactMap(\.confidence)
        let logProbability: Any =
          confidences.isEmpty
          ? NSNull() : log(max(confidences.reduce(0, +) / Double(confidences.count), 1e-6))
        return [
          "id": index, "seek": Int((segment.start * 100).rounded()), "start": segment.start, "end": segment.end,
          "text": segment.text, "tokens": [Int](), "temperature": 0.0, "avg_logprob": logProbability,
          "compression_ratio": NSNull(), "no_speech_prob": NSNull(),
        ]
      },
    ]
    if includesWords {
      body["words"] = transcript.segments.flatMap(\.words).map { word -> [String: Any] in
        ["word": word.text.trimmingCharacters(in: .whitespaces), "start": word.start, "end": word.end]
      }
    }
    return body
  }

  /// The English name of an ISO 639-1 code, lower case, as OpenAI gives it (`en` → `english`).
  static func languageName(_ code: String?) -> String {
    guard let code else { return "unknown" }
    return Locale(identifier: "en_US").localizedString(forLanguageCode: code)?.lowercased() ?? code
  }

  static func encode(_ object: [String: Any]) -> Data {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
  }

  static func plain(_ text: String, type: String) -> HTTPResponse {
    HTTPResponse(status: 200, headers: [("Content-Type", type)], body: .data(Data(text.utf8)))
  }
}
