import LanguageModels

/// Whether an excerpt gives the answer to a question, asked of the model on its own, one excerpt
/// at a time, before the answer is written.
///
/// Searching always finds something, and a small model shown a note that is only near the
/// question (the flight out when asked about the flight home) answers from it. Asked in the same
/// breath to either answer or abstain, it abstained even with the answer in front of it. A yes or
/// no about one short excerpt, with nothing else in the prompt, is a judgement it makes well.
/// An excerpt it says yes to is then answered from in a few words, and kept only when those words
/// bring something of the excerpt's that the question does not already say: a yes given to an
/// excerpt that only mentions what is asked about is then answered with the question's own words
/// ("Priya's phone number") or "not given".
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

  /// The answer `excerpt` gives to `question` in a few of its words, or nil when it gives none:
  /// the model says it does not, or its answer in a few words is not drawn from the excerpt
  /// (``isDrawn(_:from:question:)``).
  static func answer(to question: String, in excerpt: NoteCitation, model: SystemLanguageModel) async throws
    -> String?
  {
    guard try await answers(question, excerpt: excerpt, model: model) else { return nil }
    let answer = try await shortAnswer(question, excerpt: excerpt, model: model)
    return isDrawn(answer, from: excerpt.text, question: question) ? answer : nil
  }

  /// The instructions of the session that answers from one excerpt in a few words.
  static let shortAnswerInstructions = """
    You answer a question about the user's voice notes from one excerpt, in a few words taken \
    from the excerpt. If the excerpt does not give what is asked, reply "not given". For example:
    Excerpt: Call the plumber on Monday about the leak, and ask Sam for the spare key.
    Question: What do I need from Sam? -> "the spare key"
    Question: When is the plumber coming? -> "not given"
    Excerpt: The train to Porto leaves at six from platform two.
    Question: Which platform is my train on? -> "platform two"
    Question: What is my seat number? -> "not given"
    """

  /// What the model answers `question` with from `excerpt` alone, in at most about 80 characters.
  static func shortAnswer(_ question: String, excerpt: NoteCitation, model: SystemLanguageModel) async throws
    -> String
  {
    let session = LanguageModelSession(model: model, instructions: shortAnswerInstructions)
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(type: String.self, guides: [.pattern(#"^[^"\\\n]{1,80}$"#)]), dependencies: [])
    let reply = try await session.respond(
      to: Prompt("Excerpt: \(excerpt.text)\n\nQuestion: \(question)"), schema: schema, includeSchemaInPrompt: false,
      options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 40))
    return try reply.content.value(String.self)
  }

  /// Whether `answer` brings something of `excerpt`'s that `question` does not say: one of its
  /// words (``NoteAssistant/contentWords(_:)``) is not the question's and is the excerpt's, with
  /// any ending (``sameWord(_:_:)``). "Not given" never is.
  static func isDrawn(_ answer: String, from excerpt: String, question: String) -> Bool {
    guard !FullTextQuery.foldedWords(answer).starts(with: ["not", "given"]) else { return false }
    let asked = NoteAssistant.contentWords(question)
    let stated = NoteAssistant.contentWords(excerpt)
    return NoteAssistant.contentWords(answer).contains { word in
      !asked.contains { sameWord($0, word) } && stated.contains { sameWord($0, word) }
    }
  }

  /// Whether two folded words are one with other endings (``NoteAnalyzer/sameStem(_:_:)``);
  /// numbers only when equal.
  private static func sameWord(_ one: String, _ other: String) -> Bool {
    if one.allSatisfy(\.isNumber) || other.allSatisfy(\.isNumber) { return one == other }
    return NoteAnalyzer.sameStem(one, other)
  }

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
