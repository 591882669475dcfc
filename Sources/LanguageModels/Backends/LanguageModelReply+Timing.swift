extension LanguageModelReply {
  /// Where the time of one local generation went: the prompt, the forward passes of generated
  /// tokens, the sampler and the grammar, and what became of the saved system-message state.
  public struct Timing: Sendable, Equatable {
    /// What happened to the saved KV state of the prompt's system message.
    public enum PrefixState: Sendable, Equatable {
      /// None was used: no system message, too short, or saving is turned off.
      case none
      /// The KV cache already held it (an earlier request in this process).
      case inMemory
      /// It was restored from its state file.
      case loaded
      /// It was evaluated and its state file written.
      case saved
      /// It was evaluated; its state file could not be written, for this reason.
      case unsaved(String)
    }

    /// Prompt tokens evaluated (those neither in the KV cache nor restored from a state file).
    public var promptTokensEvaluated: Int
    /// Seconds from the request to the first generation step: restoring, evaluating, saving.
    public var promptSeconds: Double
    /// Seconds of the forward passes of generated tokens.
    public var decodeSeconds: Double
    /// Seconds in the sampler, not counting the grammar.
    public var samplingSeconds: Double
    /// Seconds in the grammar: checking the sampler's choice, masking the vocabulary when it
    /// rejects it, advancing its state.
    public var grammarSeconds: Double
    /// Generated tokens whose first choice the grammar rejected.
    public var grammarRejections: Int
    /// Generated tokens the grammar forced, evaluated together without sampling.
    public var forcedTokens: Int
    /// What became of the system message's saved state.
    public var prefixState: PrefixState

    init(_ timing: LlamaTiming) {
      promptTokensEvaluated = timing.promptTokensEvaluated
      promptSeconds = timing.promptSeconds
      decodeSeconds = timing.decodeSeconds
      samplingSeconds = timing.samplingSeconds
      grammarSeconds = timing.grammarSeconds
      grammarRejections = timing.grammarRejections
      forcedTokens = timing.forcedTokens
      prefixState =
        switch timing.prefixState {
        case .none: .none
        case .inMemory: .inMemory
        case .loaded: .loaded
        case .saved: .saved
        case .unsaved(let reason): .unsaved(reason)
        }
    }
  }
}
