import Foundation

extension SpeechLanguageModel {
  /// How recognition uses a custom language model.
  public enum Mode: Sendable, Hashable {
    /// Prefer the model's phrases and words, by `strength` in 0..<1; anything may still be recognized.
    case bias(strength: Double)
    /// Only the model's phrases and template expansions may be recognized.
    case restrict
  }
}
