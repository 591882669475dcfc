import Foundation

extension CustomLanguageModelData {
  /// A term and how it sounds: the spelling transcripts should use, and one or more pronunciations
  /// in X-SAMPA.
  ///
  /// Each element of `phonemes` is one whole pronunciation; its symbols may be separated by spaces
  /// (`"aU aU @r"`) or run together (`"aUaU@r"`, read longest symbol first). When a transcript holds
  /// words that sound like a pronunciation, they are written as `grapheme`.
  public struct CustomPronunciation: Sendable, Hashable, Codable, DataInsertable {
    /// The written form of the term, exactly as it should appear in transcripts.
    public let grapheme: String
    /// Pronunciations of the term, each an X-SAMPA string.
    public let phonemes: [String]

    /// Creates a term with its X-SAMPA pronunciations.
    public init(grapheme: String, phonemes: [String]) {
      self.grapheme = grapheme
      self.phonemes = phonemes
    }

    /// Adds this term to `data` (the result builder calls this).
    public func insert(data: CustomLanguageModelData) {
      data.insert(term: self)
    }
  }
}
