/// One message of a conversation, as llama.cpp's chat templates take it.
struct LlamaMessage: Sendable, Equatable {
  /// `system`, `user`, `assistant` or `tool`.
  var role: String
  var content: String
}

/// How the next token is chosen.
enum LlamaSampling: Sendable, Equatable {
  /// Always the most likely token.
  case greedy
  /// A random token after top-k and top-p filtering at `temperature`, from a seeded generator.
  case random(topK: Int?, topP: Double?, temperature: Double, seed: UInt32)
}

/// What a generation produced and why it stopped.
struct LlamaGeneration: Sendable, Equatable {
  enum StopReason: Sendable, Equatable {
    case endOfText, tokenLimit, contextFull, cancelled, stoppedByCaller
  }

  var text: String
  var promptTokens: Int
  var generatedTokens: Int
  var stopReason: StopReason
}

/// Failures inside llama.cpp, turned into the session's errors by the layer above.
enum LlamaError: Error, Equatable {
  case loadFailed(path: String)
  case contextFailed(path: String)
  case templateUnsupported
  case contextExceeded(tokens: Int, limit: Int)
  case grammarRejected(grammar: String)
  case decodeFailed(status: Int32)
}
