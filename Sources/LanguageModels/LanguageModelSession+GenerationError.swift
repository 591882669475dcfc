import Foundation

extension LanguageModelSession {
  /// Why a response could not be generated. Each message says what to do.
  public enum GenerationError: Error, LocalizedError, Sendable {
    /// Where an error came from, in words.
    public struct Context: Sendable, Equatable {
      /// A description for developers and logs.
      public var debugDescription: String

      /// A context described by `debugDescription`.
      public init(debugDescription: String) { self.debugDescription = debugDescription }
    }

    /// The instructions, transcript and prompt do not fit in the context window.
    case exceededContextWindowSize(Context)
    /// The model's weights are missing or cannot be loaded.
    case assetsUnavailable(Context)
    /// The output could not be decoded into the requested type.
    case decodingFailure(Context)
    /// A guide or schema that cannot be enforced.
    case unsupportedGuide(Context)
    /// The prompt's language is not supported.
    case unsupportedLanguageOrLocale(Context)
    /// The session is already answering a request; sessions answer one at a time.
    case concurrentRequests(Context)
    /// Content was blocked (never raised by a local model; kept for source compatibility).
    case guardrailViolation(Context)
    /// The model refused to answer; the refusal can say why (``Refusal/explanation``).
    case refusal(Refusal, Context)
    /// Too many requests (never raised locally; kept for source compatibility).
    case rateLimited(Context)

    /// A one-line message that says what went wrong and what to do.
    public var errorDescription: String? {
      switch self {
      case .exceededContextWindowSize(let context):
        "the conversation no longer fits in the model's context window (\(context.debugDescription)); start a new session or shorten the prompt"
      case .assetsUnavailable(let context):
        "the language model is unavailable: \(context.debugDescription)"
      case .decodingFailure(let context):
        "the model's output could not be decoded: \(context.debugDescription)"
      case .unsupportedGuide(let context):
        "a generation guide cannot be enforced: \(context.debugDescription)"
      case .unsupportedLanguageOrLocale(let context):
        "the language is not supported: \(context.debugDescription)"
      case .concurrentRequests(let context):
        "the session is still answering another request (\(context.debugDescription)); wait for it or use another session"
      case .guardrailViolation(let context):
        "the content was blocked: \(context.debugDescription)"
      case .refusal(_, let context):
        "the model refused: \(context.debugDescription)"
      case .rateLimited(let context):
        "too many requests: \(context.debugDescription)"
      }
    }

    /// The context of any case.
    var context: Context {
      switch self {
      case .exceededContextWindowSize(let context), .assetsUnavailable(let context), .decodingFailure(let context),
        .unsupportedGuide(let context), .unsupportedLanguageOrLocale(let context), .concurrentRequests(let context),
        .guardrailViolation(let context), .refusal(_, let context), .rateLimited(let context):
        context
      }
    }

    /// The session error for an engine failure.
    init(_ error: LlamaError) {
      switch error {
      case .contextExceeded(let tokens, let limit):
        self = .exceededContextWindowSize(.init(debugDescription: "\(tokens) tokens, the limit is \(limit)"))
      case .backendUnavailable(let detail):
        self = .assetsUnavailable(.init(debugDescription: detail))
      case .loadFailed(let path), .contextFailed(let path):
        self = .assetsUnavailable(.init(debugDescription: "llama.cpp could not load \(path)"))
      case .templateUnsupported:
        self = .assetsUnavailable(.init(debugDescription: "the model's chat template is not one llama.cpp knows"))
      case .grammarRejected:
        self = .unsupportedGuide(.init(debugDescription: "llama.cpp rejected the grammar built from the schema"))
      case .decodeFailed(let status):
        self = .decodingFailure(.init(debugDescription: "llama_decode returned \(status)"))
      }
    }
  }
}
