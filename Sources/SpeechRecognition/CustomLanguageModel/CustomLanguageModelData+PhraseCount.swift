import Foundation

extension CustomLanguageModelData {
  /// A phrase the recognizer should expect, with a count that weights it against the other phrases.
  ///
  /// Counts are relative: a phrase with count 200 is twice as likely as one with count 100. The
  /// prepared model turns counts into probabilities.
  public struct PhraseCount: Sendable, Hashable, Codable, CustomStringConvertible, DataInsertable {
    /// The phrase, written as it should appear in transcripts.
    public let phrase: String
    /// The phrase's relative weight (zero or more).
    public let count: Int

    /// Creates a weighted phrase.
    public init(phrase: String, count: Int) {
      self.phrase = phrase
      self.count = count
    }

    /// The phrase and its count, for logs.
    public var description: String { "\"\(phrase)\" x\(count)" }

    /// Adds this phrase to `data` (the result builder calls this).
    public func insert(data: CustomLanguageModelData) {
      data.insert(phraseCount: self)
    }
  }
}
