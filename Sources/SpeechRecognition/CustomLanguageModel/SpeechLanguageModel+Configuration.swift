import Foundation

extension SpeechLanguageModel {
  /// Where a prepared model is written and read, and how strongly recognition should follow it.
  ///
  /// Apple's `SFSpeechLanguageModel.Configuration`: `languageModel` receives the phrases and the
  /// grammar, `vocabulary` (when given) the words and the custom pronunciations; without it they go
  /// into the language model file too. `weight` (0...1, Apple's 26 addition) is the knob from
  /// biasing to restricting; see ``mode``.
  public struct Configuration: Sendable, Hashable {
    /// The weight used when none is given: a moderate bias.
    public static let defaultWeight = 0.5

    /// The compiled language model file.
    public let languageModel: URL
    /// The compiled vocabulary file, or nil to keep the vocabulary in the language model file.
    public let vocabulary: URL?
    /// How strongly recognition follows the model, 0...1 (clamped); nil means ``defaultWeight``.
    public let weight: Double?

    /// A configuration with one file for everything and the default weight.
    public init(languageModel: URL) {
      self.init(languageModel: languageModel, vocabulary: nil, weight: nil)
    }

    /// A configuration with separate language model and vocabulary files and the default weight.
    public init(languageModel: URL, vocabulary: URL?) {
      self.init(languageModel: languageModel, vocabulary: vocabulary, weight: nil)
    }

    /// A configuration with an explicit weight; values outside 0...1 are clamped, NaN means default.
    public init(languageModel: URL, vocabulary: URL?, weight: Double?) {
      self.languageModel = languageModel
      self.vocabulary = vocabulary
      self.weight = weight.flatMap { $0.isNaN ? nil : min(max($0, 0), 1) }
    }

    /// How recognition uses the model at this weight: below 1 it biases (prompt and token bias,
    /// with `strength` = weight; 0 keeps only the pronunciations), at 1 it restricts output to
    /// the grammar.
    public var mode: Mode {
      let value = weight ?? Self.defaultWeight
      return value >= 1 ? .restrict : .bias(strength: value)
    }
  }

}
