import LanguageModels

/// The shape of one answer, built from the excerpts the question was shown: first the labels of
/// the sentences that answer it (chosen by the grammar among those shown), then the answer, citing
/// the excerpts.
///
/// Pointing at the sentence before writing has a small model answer from it, where asked for the
/// answer alone it wandered off into the rest of the excerpt.
struct AnswerScaffold: Sendable {
  /// The sentences the evidence may pick, each with its label: the excerpt's number and the
  /// sentence's place in it, "2.3".
  let sentences: [(label: String, text: String)]
  /// The excerpts as the prompt shows them, sentence by sentence under their labels.
  let listing: String
  /// The labels the evidence may pick: every sentence's, or those nearest the question in meaning.
  var evidenceChoices: [String]

  /// The most sentences one answer's evidence picks.
  static let evidenceLimit = 2

  /// The scaffold for an answer drawn from `excerpts`: their sentences, and the items of an
  /// action-item list, each a sentence of its own.
  init(excerpts: [NoteCitation]) {
    var sentences: [(label: String, text: String)] = []
    var lines: [String] = []
    for excerpt in excerpts {
      lines.append(CitationBook.heading(excerpt) + ":")
      let parts = AnalysisScaffold.sentences(of: excerpt.text).flatMap { $0.split(separator: "; ").map(String.init) }
      for (index, part) in parts.enumerated() {
        let label = "\(excerpt.number).\(index + 1)"
        sentences.append((label, part))
        lines.append("  \(label) \(part)")
      }
    }
    self.sentences = sentences
    listing = lines.joined(separator: "\n")
    evidenceChoices = sentences.map(\.label)
  }

  /// The schema the answer follows: `{"evidence": [labels], "answer": cited text}`.
  func schema() throws -> GenerationSchema {
    let root = DynamicGenerationSchema(
      name: "Answer",
      properties: [
        .init(
          name: "evidence",
          schema: DynamicGenerationSchema(
            arrayOf: DynamicGenerationSchema(name: "Label", anyOf: evidenceChoices), minimumElements: 1,
            maximumElements: Self.evidenceLimit)),
        .init(
          name: "answer", schema: DynamicGenerationSchema(type: String.self, guides: [.pattern(Self.citedPattern)])),
      ])
    return try GenerationSchema(root: root, dependencies: [])
  }

  /// What the answer looks like, for the instructions (the grammar holds the details).
  static let shape = """
    Answer with JSON: {"evidence": [the labels of the sentences that answer the question, at most \
    \(evidenceLimit)], "answer": one to three short sentences to the user, each fact followed by \
    its excerpt's number in brackets}. For example, if sentence 2.1 says "Call the dentist on \
    Tuesday.", the question "When is my dentist appointment?" gets {"evidence": ["2.1"], \
    "answer": "You planned to call the dentist on Tuesday [2]."}.
    """

  /// Text with one to four citations `[n]`, each after words of its own (so the model cannot run
  /// on citing "[1] [2] [3]…") of at most about 300 characters (so it cannot copy an excerpt on
  /// and on: at the limit the citation is all it may write), without line breaks, quotes or
  /// backslashes (which keeps the JSON simple). A citation ends its clause: it is followed by the
  /// final mark, or by a punctuation mark, a space and a letter. A small model otherwise wrote the
  /// evidence's labels after it ("[1].1, 1.2", "[1]. 1.2 Before that"), or ran on copying the next
  /// excerpt ("… two days overdue. [1] and the methods section. [2]").
  static let citedPattern: String = {
    let words = #"[^\[\]\n"\\]{0,100}[A-Za-z][^\[\]\n"\\]{0,200}"#
    let citation = #"\[[1-9][0-9]?\]"#
    let more = "([.,;:!?] [A-Za-z]\(words)\(citation))?"
    return "^\(words)\(citation)\(more)\(more)\(more)[.!?]?$"
  }()
}
