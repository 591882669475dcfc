extension SystemLanguageModel {
  /// How many tokens some input takes in this model's vocabulary, as the 26.4 betas'
  /// `tokenUsage(for:)` answered; the released API has `tokenCount(for:)`, which we also have.
  public struct TokenUsage: Sendable, Hashable {
    /// The number of tokens.
    public let tokenCount: Int

    /// A usage of `tokenCount` tokens.
    public init(tokenCount: Int) { self.tokenCount = tokenCount }
  }

  /// The tokens `prompt` takes.
  public func tokenUsage(for prompt: Prompt) async throws -> TokenUsage {
    TokenUsage(tokenCount: try await tokenCount(for: prompt))
  }

  /// The tokens `instructions` take.
  public func tokenUsage(for instructions: Instructions) async throws -> TokenUsage {
    TokenUsage(tokenCount: try await tokenCount(for: instructions))
  }

  /// The tokens `text` takes.
  public func tokenUsage(for text: String) async throws -> TokenUsage {
    TokenUsage(tokenCount: try await tokenCount(for: text))
  }
}
