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
  /// on citing "[1] [2] [3]…") of at most about 300 characters (so it cannot copy an excerpt on
  /// and on: at the limit the citation is all it may write), without line breaks, quotes or
  /// backslashes (which keeps the JSON simple); or exactly the abstention.
  static let answerPattern: String = {
    let words = #"[^\[\]\n"\\]{0,150}[A-Za-z][^\[\]\n"\\]{0,150}"#
    let citation = #"\[[1-9][0-9]?\]"#
    let tail = #"[^\[\]\n"\\A-Za-z]{0,8}"#
    let more = "(\(words)\(citation))?"
    return "^(The notes don't say\\.|\(words)\(citation)\(more)\(more)\(more)\(tail))$"
  }()
}
