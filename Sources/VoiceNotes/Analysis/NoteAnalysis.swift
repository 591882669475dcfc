import LanguageModels

/// What the language model extracts from a note's transcript (the seed app's analysis).
///
/// Every guide is enforced while decoding, so the result always has one to five tags, a title
/// and a summary, and action items in the right shape.
@Generable(description: "The title, summary, tags, people and tasks of a voice note")
public struct NoteAnalysis: Sendable, Equatable {
  /// The note's title.
  @Guide(description: "What the note is about, in three to eight words", .pattern(NoteAnalysis.titlePattern))
  public var title: String

  /// The note in two or three sentences.
  @Guide(
    description: "The note in two or three sentences of your own, using only facts it states",
    .pattern(NoteAnalysis.summaryPattern))
  public var summary: String

  /// Topics of the note.
  @Guide(
    description: "Topics of the note, one or two lowercase words each", .count(1...5),
    .element(.pattern(NoteAnalysis.tagPattern)))
  public var tags: [String]

  /// People the note names.
  @Guide(
    description:
      "Every person the note calls by name, spelled as in the transcript; not the speaker, roles, companies, places or pets; empty if none",
    .maximumCount(12), .element(.pattern(NoteAnalysis.namePattern)))
  public var people: [String]

  /// Tasks the note mentions.
  @Guide(
    description: "Every task the note mentions, once: the speaker's, other people's and done ones; empty if none",
    .maximumCount(12))
  public var actionItems: [AnalyzedActionItem]

  /// Three to eight words of at most 16 characters, separated by single spaces: enforced while
  /// decoding, so a title is never a single word or a copied paragraph. Quotes and backslashes
  /// are left out, which keeps the JSON simple. A point comes only after an abbreviated
  /// title, which counts as one word with the name after it ("Mr. Dashwood"), or in a number
  /// ("2.5"). A model out of words at the eighth had put a point where the space would be, "his
  /// power and.marriage"; for the same reason a comma comes only before the space between two
  /// words ("milk, coffeebeans,and," was one word), and a point before a digit only in a number
  /// ("coffeebeansand10.0000" was the next try).
  public static let titlePattern = titlePattern(excluding: "")

  /// One to three sentences of under 200 characters each. The instructions ask for two or three,
  /// and a transcript of three sentences or more is held to two (``summaryPattern(excluding:leastSentences:)``);
  /// a note of one sentence forced into two got a made-up second one, "No tasks are listed".
  /// Every free text has such a bound,
  /// enforced while decoding: a small model that falls into a loop inside a string
  /// ("#/#/####...") or copies the transcript on and on has to close it and go on, instead of
  /// spending the response budget on it. A sentence ends at ".", "!" or "?" and a space; inside
  /// one, a point comes only after an abbreviated title followed by a name ("Dr. Haddad"), before
  /// a digit ("2.5") or in the words "a.m" and "p.m". A point before any letter, or before an "m"
  /// after any word, let a model run on past its third sentence ("…the lunch group.eli signed
  /// up…", "…this week.midi cues…"), and a title that may end a sentence gave "Mr. .". A
  /// sentence has five characters or more, so the "Mr" of "Mr. Dashwood …" cannot be one and
  /// count towards the least number of sentences.
  public static let summaryPattern = summaryPattern(excluding: "")

  /// Two or three sentences, as ``summaryPattern``: a summary of a note long enough to say two things.
  static let fullSummaryPattern = summaryPattern(excluding: "", leastSentences: 2)

  /// A tag: lowercase (no capital letter A to Z; the app lowercases the rest), at most 40
  /// characters.
  public static let tagPattern = tagPattern(excluding: "")

  /// A person's name: at most 60 characters.
  public static let namePattern = line(atMost: 60)

  /// A task: at most 160 characters.
  public static let taskPattern = taskPattern(excluding: "")

  /// An abbreviated title and the space before the name it goes with ("Dr. "): the only place a
  /// point may stand before a letter in a title or a summary.
  private static let abbreviatedTitle = "(Dr|Mr|Mrs|Ms|Mx|St|Prof)\\. "

  // The same patterns, leaving out the characters of the class `excluded` as well (an analysis
  // of a transcript without East Asian scripts leaves those out).
  static func titlePattern(excluding excluded: String) -> String {
    let word = #"((\#(abbreviatedTitle))?[^ .,\#(excluded)"\\\n]{1,16}|[0-9]{1,6}\.[0-9]{1,4})"#
    return "^\(word)(,? \(word)){2,7}$"
  }
  static func summaryPattern(excluding excluded: String, leastSentences: Int = 1) -> String {
    let plain = #"[^.!?\#(excluded)"\\\n]"#
    let title = abbreviatedTitle
    let sentence = #"(\#(title))?\#(plain)(\#(plain)|\.[0-9]| [ap]\.m| \#(title)\#(plain)){4,196}"#
    return #"^\#(sentence)([.!?] \#(sentence)){\#(leastSentences - 1),2}[.!?]$"#
  }
  static func tagPattern(excluding excluded: String) -> String { line(atMost: 40, excluding: "A-Z" + excluded) }
  static func taskPattern(excluding excluded: String) -> String { line(atMost: 160, excluding: excluded) }

  /// One line of 1 to `length` characters without quotes or backslashes (which keeps the JSON
  /// simple), nor the characters of the class `excluded`.
  private static func line(atMost length: Int, excluding excluded: String = "") -> String {
    #"^[^\#(excluded)"\\\n]{1,\#(length)}$"#
  }

  /// Creates an analysis; the model creates them through the generated initialiser.
  public init(title: String, summary: String, tags: [String], people: [String], actionItems: [AnalyzedActionItem]) {
    self.title = title
    self.summary = summary
    self.tags = tags
    self.people = people
    self.actionItems = actionItems
  }
}

/// A task as the model reports it (the app gives it an identifier when it stores it).
@Generable(description: "A task mentioned in a voice note")
public struct AnalyzedActionItem: Sendable, Equatable {
  /// What to do.
  @Guide(
    description: "The task as a short imperative sentence that starts with a verb",
    .pattern(NoteAnalysis.taskPattern))
  public var task: String

  /// People the note names.
  @Guide(
    description: "The people the task names, as written in the note",
    .maximumCount(6), .element(.pattern(NoteAnalysis.namePattern)))
  public var people: [String]

  /// Whether the note says it is done.
  @Guide(description: "False, unless the note says this task has already been done")
  public var isCompleted: Bool

  /// Creates a task.
  public init(isCompleted: Bool, task: String, people: [String]) {
    self.isCompleted = isCompleted
    self.task = task
    self.people = people
  }
}
