extension LanguageModelSession.GenerationError {
  /// A model's refusal to answer, carried by ``LanguageModelSession/GenerationError/refusal(_:_:)``:
  /// the conversation it refused, from which the model can be asked why.
  ///
  /// ```swift
  /// do {
  ///   _ = try await session.respond(to: prompt)
  /// } catch LanguageModelSession.GenerationError.refusal(let refusal, _) {
  ///   print(try await refusal.explanation.content)
  /// }
  /// ```
  public struct Refusal: Sendable {
    /// The entries of the turn that was refused: the prompt, and the refusal when the model
    /// wrote one.
    let transcriptEntries: [Transcript.Entry]
    /// The model that explains; nil for the default one.
    let model: SystemLanguageModel?

    /// A refusal of the turn whose entries are `transcriptEntries`.
    public init(transcriptEntries: [Transcript.Entry]) {
      self.init(transcriptEntries: transcriptEntries, model: nil)
    }

    /// A refusal by `model`, which is then the one asked for the explanation.
    init(transcriptEntries: [Transcript.Entry], model: SystemLanguageModel?) {
      self.transcriptEntries = transcriptEntries
      self.model = model
    }

    /// The model's explanation of why it refused, generated from the refused conversation.
    public var explanation: LanguageModelSession.Response<String> {
      get async throws { try await explanationStream.collect() }
    }

    /// The explanation as it is generated.
    public var explanationStream: LanguageModelSession.ResponseStream<String> {
      let session = LanguageModelSession(
        model: model ?? .default, transcript: Transcript(entries: transcriptEntries))
      return session.streamResponse(to: Self.question)
    }

    /// What the model is asked after the refused turn.
    static let question = "In one or two sentences, explain why you did not answer my last request."
  }
}
