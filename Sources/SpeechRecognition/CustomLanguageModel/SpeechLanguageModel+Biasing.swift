import Foundation

extension SpeechLanguageModel {
  /// A model of `phrases` alone (one phrase count each), for biasing recognition toward words
  /// likely to be said: contextual strings, an analysis context's words. Nil when no phrase has
  /// any text.
  ///
  /// - Throws: ``CustomLanguageModelError`` when a phrase cannot be compiled.
  init?(biasingToward phrases: [String], locale: Locale) throws {
    let phrases = phrases.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    guard !phrases.isEmpty else { return nil }
    let data = CustomLanguageModelData(locale: locale, identifier: "contextual-strings", version: "1") {
      for phrase in phrases { CustomLanguageModelData.PhraseCount(phrase: phrase, count: 10) }
    }
    try self.init(compiling: data)
  }
}
