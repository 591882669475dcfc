import LanguageModels

/// Whether an excerpt gives the answer to a question, asked of the model on its own, one excerpt
/// at a time, before the answer is written.
///
/// Searching always finds something, and a small model shown a note that is only near the
/// question (the flight out when asked about the flight home) answers from it. Asked in the same
/// breath to either answer or abstain, it abstained even with the answer in front of it. A yes or
/// no about one short excerpt, with nothing else in the prompt, is a judgement it makes well.
enum ExcerptCheck {
  /// The instructions of the checking session.
  static let instructions = """
    You check whether an excerpt of the user's voice notes gives the answer to their question. \
    Reply "yes" if the excerpt states the answer or part of it, in any words, and "no" if it does \
    not. A question may name a kind of thing that the excerpt names by its brand or its own name. \
    For example:
    Excerpt: Call the plumber on Monday about the leak, and ask Sam for the spare key.
    Question: What do I need from Sam? -> yes (the spare key)
    Question: When is the plumber coming? -> no (it says when to call, not when he comes)
    Excerpt: The train to Porto leaves at six from platform two.
    Question: Which platform is my train on? -> yes (platform two)
    Question: When does the train back from Porto leave? -> no (only the train to Porto)
    Excerpt: Book the Lufthansa flight to Munich for the 3rd.
    Question: Which airline am I flying with? -> yes (Lufthansa is an airline)
    """

  /// Whether `excerpt` states the answer to `question` (or part of it), in `model`'s judgement.
  static func answers(_ question: String, excerpt: NoteCitation, model: SystemLanguageModel) async throws -> Bool {
    let session = LanguageModelSession(model: model, instructions: instructions)
    let prompt = """
      Excerpt: \(excerpt.text)

      Question: \(question)

      Does the excerpt give the answer?
      """
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(name: "Verdict", anyOf: ["yes", "no"]), dependencies: [])
    let reply = try await session.respond(
      to: Prompt(prompt), schema: schema, includeSchemaInPrompt: false,
      options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 4))
    return try reply.content.value(String.self) == "yes"
  }
}
