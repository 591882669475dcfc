import Foundation
import LanguageModels

/// GeneratedContent's JSON parser and its partial-JSON parser (for streamed output).
///
/// The input is UTF-8 text. What the full parser accepts must print (``GeneratedContent/jsonString``)
/// as JSON that parses again to the same content and the same text; the partial parser must take the
/// text, and each of a few of its prefixes, without failing.
enum JSONFuzz {
  static func run(_ data: Data) {
    let text = String(decoding: data, as: UTF8.self)
    let partial = GeneratedContent(partialJSON: text)
    _ = partial.jsonString
    for length in Set([text.count / 3, text.count / 2, text.count - 1]) where length > 0 {
      _ = GeneratedContent(partialJSON: String(text.prefix(length))).jsonString
    }
    guard let content = try? GeneratedContent(json: text) else { return }
    let printed = content.jsonString
    do {
      let again = try GeneratedContent(json: printed)
      fuzzCheck(again.jsonString == printed, "\(printed) prints again as \(again.jsonString)")
      fuzzCheck(again == content, "\(printed) parses to other content")
    } catch {
      fuzzCheck(false, "the printed JSON \(printed) does not parse: \(error)")
    }
  }
}
