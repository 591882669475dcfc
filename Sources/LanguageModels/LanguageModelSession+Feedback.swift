import Foundation

extension LanguageModelSession {
  /// The attachment a feedback report carries: the session's transcript with the feedback, as
  /// JSON. Nothing is sent anywhere; the caller keeps or files the data.
  struct FeedbackAttachment: Encodable {
    var sentiment: LanguageModelFeedback.Sentiment?
    var issues: [LanguageModelFeedback.Issue]
    var desiredOutput: Transcript.Entry?
    var desiredResponseText: String?
    var desiredResponseContent: GeneratedContent?
    var transcript: Transcript
    var model: String
  }

  /// Feedback on this session's responses, with its transcript, as JSON data to attach to a
  /// report; `desiredOutput` is the entry the model should have written.
  @discardableResult
  public func logFeedbackAttachment(
    sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue] = [],
    desiredOutput: Transcript.Entry? = nil
  ) -> Data {
    feedbackAttachment(sentiment: sentiment, issues: issues, desiredOutput: desiredOutput)
  }

  /// Feedback with the text the model should have answered.
  @discardableResult
  public func logFeedbackAttachment(
    sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue] = [],
    desiredResponseText: String?
  ) -> Data {
    feedbackAttachment(sentiment: sentiment, issues: issues, desiredResponseText: desiredResponseText)
  }

  /// Feedback with the content (a `@Generable` value) the model should have answered.
  @discardableResult
  public func logFeedbackAttachment(
    sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue] = [],
    desiredResponseContent: (any ConvertibleToGeneratedContent)?
  ) -> Data {
    feedbackAttachment(
      sentiment: sentiment, issues: issues, desiredResponseContent: desiredResponseContent?.generatedContent)
  }

  /// The feedback with this session's transcript and model, as JSON.
  private func feedbackAttachment(
    sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue],
    desiredOutput: Transcript.Entry? = nil, desiredResponseText: String? = nil,
    desiredResponseContent: GeneratedContent? = nil
  ) -> Data {
    let feedback = FeedbackAttachment(
      sentiment: sentiment, issues: issues, desiredOutput: desiredOutput, desiredResponseText: desiredResponseText,
      desiredResponseContent: desiredResponseContent, transcript: transcript, model: model.backend.displayName)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    // Strings, numbers (non-finite ones as strings) and JSON text: encoding cannot fail.
    return (try? encoder.encode(feedback)) ?? Data()
  }
}
