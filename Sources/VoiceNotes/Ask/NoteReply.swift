import LanguageModels

/// The shape the assistant's answer is generated in: one text that either cites an excerpt
/// number in brackets at least once or is exactly the abstention. Enforced while decoding, so an
/// answer never states something from the notes without saying where it is from.
@Generable(description: "An answer from the user's notes")
struct NoteReply: Sendable, Equatable {
  /// The answer with its citations, or the abstention.
  @Guide(
    description:
      "One to three sentences to the user, each fact followed by its excerpt number like [1]; or: The notes don't say.",
    .pattern(NoteReply.answerPattern))
  var answer: String

  /// Text with one to four citations `[n]`, each after words of its own (so the model cannot run
  /// on citing "[1] [2] [3]…"), without line breaks, quotes or backslashes (which keeps the JSON
  /// simple); or exactly the abstention.
  static let answerPattern: String = {
    let words = #"[^\[\]\n"\\]*[A-Za-z][^\[\]\n"\\]*"#
    let citation = #"\[[1-9][0-9]?\]"#
    let tail = #"[^\[\]\n"\\A-Za-z]*"#
    let more = "(\(words)\(citation))?"
    return "^(The notes don't say\\.|\(words)\(citation)\(more)\(more)\(more)\(tail))$"
  }()
}
