/// Feedback on a session's responses, for ``LanguageModelSession/logFeedbackAttachment(sentiment:issues:desiredOutput:)``:
/// how the person felt about the answer and what was wrong with it.
public struct LanguageModelFeedback: Sendable {
  /// How the person felt about a response.
  public enum Sentiment: String, Sendable, Hashable, Codable, CaseIterable {
    case positive, negative, neutral
  }

  /// One thing wrong with a response.
  public struct Issue: Sendable, Hashable, Codable {
    /// The kinds of problem a response can have.
    public enum Category: String, Sendable, Hashable, Codable, CaseIterable {
      case unhelpful, tooVerbose, didNotFollowInstructions, incorrect, stereotypeOrBias, suggestiveOrSexual
      case vulgarOrOffensive, triggeredGuardrailUnexpectedly
    }

    /// What kind of problem it is.
    public var category: Category
    /// The person's words about it.
    public var explanation: String?

    /// An issue of `category`, explained in the person's words if they gave any.
    public init(category: Category, explanation: String? = nil) {
      self.category = category
      self.explanation = explanation
    }
  }
}
