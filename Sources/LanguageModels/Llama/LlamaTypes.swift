import Foundation

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
  /// Where the time went.
  var timing: LlamaTiming
}

/// Where the time of one generation went, measured on the monotonic clock.
struct LlamaTiming: Sendable, Equatable {
  /// What happened to the saved state of the prompt's shared prefix.
  enum PrefixState: Sendable, Equatable {
    /// No prefix was offered, or it was too short to save.
    case none
    /// The KV cache already held the prefix (an earlier request in this process).
    case inMemory
    /// The prefix's state was read from its state file.
    case loaded
    /// The prefix was evaluated and its state file written.
    case saved
    /// The prefix was evaluated; its state file could not be written, for this reason.
    case unsaved(String)
  }

  /// Prompt tokens actually evaluated (those the KV cache did not already hold).
  var promptTokensEvaluated = 0
  /// Seconds spent on the prompt: restoring a saved prefix, evaluating, writing a state file.
  var promptSeconds = 0.0
  /// Seconds of forward passes for generated tokens.
  var decodeSeconds = 0.0
  /// Seconds in the sampler chain, without the grammar.
  var samplingSeconds = 0.0
  /// Seconds in the grammar: checking candidates, masking the vocabulary, advancing its state.
  var grammarSeconds = 0.0
  /// Tokens for which the grammar rejected the sampler's choice and the vocabulary was masked.
  var grammarRejections = 0
  /// Generated tokens the grammar forced, evaluated together without sampling.
  var forcedTokens = 0
  var prefixState = PrefixState.none
}

/// A prompt prefix whose KV state is saved in a file, for any process to restore.
struct LlamaPrefix: Sendable {
  /// The text the prompt starts with (the formatted system message).
  var text: String
  /// The folder the state files are kept in.
  var folder: URL
  /// The grammar the request is constrained by, part of the file's key.
  var grammar: String?
}

/// Failures inside llama.cpp, turned into the session's errors by the layer above.
enum LlamaError: Error, Equatable {
  case backendUnavailable(detail: String)
  case loadFailed(path: String)
  case contextFailed(path: String)
  case templateUnsupported
  case contextExceeded(tokens: Int, limit: Int)
  case grammarRejected(grammar: String)
  case decodeFailed(status: Int32)
}
