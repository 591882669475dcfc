import LanguageModels

/// What the benchmark asks the model for: an analysis of a voice note, shaped like the app's.
@Generable(description: "An analysis of a voice note")
struct MeetingNoteAnalysis {
  @Guide(description: "A title of three to eight words naming the main subject")
  var title: String

  @Guide(description: "One or two plain sentences on what the note says")
  var summary: String

  @Guide(description: "Short lowercase topics", .count(1...5))
  var tags: [String]

  @Guide(description: "Every person the note names")
  var people: [String]

  @Guide(description: "Each thing someone has to do")
  var actionItems: [MeetingActionItem]
}

/// One task from the note.
@Generable(description: "A task from the note")
struct MeetingActionItem {
  @Guide(description: "A short imperative sentence")
  var task: String

  @Guide(description: "Who does it, if the note says")
  var owner: String

  @Guide(description: "Whether the note says it is already done")
  var isDone: Bool
}
