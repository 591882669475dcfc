import Foundation
import LanguageModels

/// The shape of one analysis answer, built for one transcript: the note's title, summary, tags
/// and people, then every sentence of the transcript in order, each copied by the grammar and
/// followed by the tasks it states.
///
/// A small model asked for "every task" in one list stops after the speaker's own two or three.
/// Walking it through the sentences, with each one's text forced (and so evaluated in one batch,
/// not generated) right before its tasks, has it look at every sentence, which is where the tasks
/// of other people and the ones already done were being lost.
struct AnalysisScaffold: Sendable {
  /// The transcript's sentences, in order, as the answer copies them.
  let sentences: [String]

  /// Characters the model may not write, as the inside of a regular-expression class: the
  /// Chinese, Japanese and Korean scripts when the transcript has none of them. The Qwen models
  /// sometimes drift into Chinese in the middle of an English title ("coffee beans,新鲜").
  let foreignCharacters: String

  /// The scaffold for `transcript`.
  init(_ transcript: String) {
    sentences = Self.sentences(of: transcript)
    let usesEastAsianScript = transcript.unicodeScalars.contains { scalar in
      Self.eastAsianRanges.contains { $0.contains(scalar.value) }
    }
    foreignCharacters =
      usesEastAsianScript
      ? ""
      : Self.eastAsianRanges.map {
        "\(Character(Unicode.Scalar($0.lowerBound)!))-\(Character(Unicode.Scalar($0.upperBound)!))"
      }.joined()
  }

  /// Code points of the Chinese, Japanese and Korean scripts and their punctuation and full-width
  /// forms.
  static let eastAsianRanges: [ClosedRange<UInt32>] = [
    0x1100...0x11FF, 0x2E80...0x2FDF, 0x3000...0x303F, 0x3040...0x30FF, 0x3100...0x31FF, 0x3400...0x4DBF,
    0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF,
  ]

  /// Tasks one sentence may state.
  static let tasksPerSentence = 3
  /// Names one sentence may hold. Few sentences name more than four; a model that falls into
  /// repeating a name ("Shop", "Shop", …) fills the list to this bound, so a low one ends the
  /// loop sooner (on a five-minute note a piece's 99 names became 63).
  static let namesPerSentence = 5
  /// People one task may involve, for the same reason.
  static let peoplePerTask = 4
  /// What a name may stand for; only persons become the note's people.
  static let kinds = ["person", "company", "place", "product", "pet", "other"]
  /// What may have become of a task. A cancelled one is dropped from the analysis: a small model
  /// given a place for the task a speaker decides against puts it there, where told only to leave
  /// it out it lists it as one to do.
  static let states = ["to do", "done", "cancelled", "event"]
  /// The states whose tasks are action items.
  static let actionStates: Set = ["to do", "done"]

  /// The fewest sentences the summary may have: two, as the guide asks, for a transcript of three
  /// sentences or more; one for a shorter note, where a second would have to be made up. Asked
  /// for two or three in words alone, a small model wrote one sentence for a fifth of the notes.
  var leastSummarySentences: Int { sentences.count >= 3 ? 2 : 1 }

  /// The schema the answer follows: the title, summary and tags with `NoteAnalysis`'s guides,
  /// then `sentences`, an object whose properties "1", "2", … each hold one sentence's text (a
  /// constant), the names in it with what each names, and the tasks it states, each with its
  /// state before its text.
  func schema() throws -> GenerationSchema {
    let excluded = foreignCharacters
    let line = { (pattern: (String) -> String) in
      DynamicGenerationSchema(type: String.self, guides: [.pattern(pattern(excluded))])
    }
    let task = { (index: Int, spans: DynamicGenerationSchema, most: Int) in
      DynamicGenerationSchema(
        name: "Task\(index + 1)",
        properties: [
          .init(name: "state", schema: DynamicGenerationSchema(type: String.self, guides: [.anyOf(Self.states)])),
          .init(name: "task", schema: line(NoteAnalysis.taskPattern(excluding:))),
          .init(
            name: "people",
            schema: DynamicGenerationSchema(arrayOf: spans, maximumElements: min(most, Self.peoplePerTask))),
        ])
    }
    let entries = sentences.enumerated().map { index, sentence in
      let found = Self.nameSpans(of: sentence)
      // A list holds each of the sentence's names at most once (a small model repeats the one
      // name of a sentence to the list's end), and none when the sentence has none.
      let spans = DynamicGenerationSchema(
        type: String.self, guides: [found.spans.isEmpty ? .constant("") : .anyOf(found.spans)])
      let most = found.spans.isEmpty ? 0 : min(found.names, Self.namesPerSentence)
      let name = DynamicGenerationSchema(
        name: "Name\(index + 1)",
        properties: [
          .init(name: "name", schema: spans),
          .init(name: "kind", schema: DynamicGenerationSchema(type: String.self, guides: [.anyOf(Self.kinds)])),
        ])
      return DynamicGenerationSchema.Property(
        name: String(index + 1),
        schema: DynamicGenerationSchema(
          name: "Sentence\(index + 1)",
          properties: [
            .init(name: "text", schema: DynamicGenerationSchema(type: String.self, guides: [.constant(sentence)])),
            .init(
              name: "names",
              schema: DynamicGenerationSchema(
                arrayOf: name, maximumElements: most)),
            .init(
              name: "tasks",
              schema: DynamicGenerationSchema(
                arrayOf: task(index, spans, most), maximumElements: Self.tasksPerSentence)),
          ]))
    }
    let root = DynamicGenerationSchema(
      name: "NoteAnalysis",
      properties: [
        .init(name: "title", schema: line(NoteAnalysis.titlePattern(excluding:))),
        .init(
          name: "summary",
          schema: line { NoteAnalysis.summaryPattern(excluding: $0, leastSentences: leastSummarySentences) }),
        .init(
          name: "tags",
          schema: DynamicGenerationSchema(
            arrayOf: line(NoteAnalysis.tagPattern(excluding:)), minimumElements: 1, maximumElements: 5)),
        .init(name: "sentences", schema: DynamicGenerationSchema(name: "Sentences", properties: entries)),
      ])
    return try GenerationSchema(root: root, dependencies: [])
  }

  /// The most words a name may have.
  static let wordsPerName = 4

  /// What a sentence's names (and its tasks' people) are chosen among, and how many names it
  /// holds as far as its words tell. The choices are the runs of one to ``wordsPerName``
  /// capitalised words ("Dr. Lee", "Phạm Minh Tuấn"), in the sentence's own spelling, that do not
  /// run past a comma or a sentence's end and do not start with a pronoun or another word
  /// capitalised only for starting a sentence ("She", "Okay"); a possessive "'s" is left off.
  /// The names are the longest such runs. The analysis keeps only names the transcript
  /// capitalises, so nothing it would keep is lost; held to these, a small model cannot carry
  /// earlier sentences' names on into every later one or make a name of a phrase, and a name's
  /// last tokens are forced.
  static func nameSpans(of sentence: String) -> (spans: [String], names: Int) {
    var spans: [String] = []
    var names = 0
    var run: [String] = []
    for raw in sentence.split(separator: " ") {
      let title = TranscriptNames.abbreviatedTitles.contains(raw.dropLast().lowercased()) && raw.hasSuffix(".")
      var word = title ? Substring(raw) : Substring(raw.trimmingCharacters(in: .punctuationCharacters))
      var ends = !title && raw.last.map { $0.isPunctuation && $0 != "'" && $0 != "’" } == true
      for possessive in ["'s", "’s"] where word.hasSuffix(possessive) {
        word = word.dropLast(2)
        ends = true
      }
      let capitalised = word.first?.isUppercase == true && word.count > 1
      guard capitalised, run.count > 0 || !notNames.contains(word.lowercased()) else {
        run = []
        continue
      }
      if run.isEmpty { names += 1 }
      run.append(String(word))
      if run.count > wordsPerName { run.removeFirst() }
      for start in run.indices where !title && !notNames.contains(run[start].lowercased()) {
        let span = run[start...].joined(separator: " ")
        if !spans.contains(span) { spans.append(span) }
      }
      if ends { run = [] }
    }
    return (spans, names)
  }

  /// Capitalised words that begin no name: pronouns, articles, conjunctions, prepositions,
  /// auxiliary verbs ("Had he known", "Could you"), the verbs a note's instructions start with
  /// ("Email the landlord", "Ask Noor"), and the words a speaker starts a sentence with. Words
  /// that are also given names ("Will", "May", "Grace", "Bill", "Mark") are not among them.
  private static let notNames: Set<String> = [
    "i'm", "i'll", "i've", "i'd", "he", "she", "it", "we", "you", "they", "me", "him", "her", "us", "them",
    "my", "his", "its", "our", "your", "their", "he's", "she's", "it's", "we're", "we'll", "you're", "they're",
    "the", "an", "and", "but", "or", "nor", "so", "then", "also", "if", "when", "this", "that", "these", "those",
    "oh", "um", "uh", "okay", "ok", "yeah", "yes", "no", "well", "anyway", "just", "maybe", "still", "note", "notes",
    "there", "here", "what", "who", "how", "why", "where", "which", "let's", "need", "remember", "don't",
    "on", "in", "at", "to", "for", "from", "with", "by", "about", "after", "before", "of", "as", "into",
    "had", "has", "have", "was", "were", "is", "are", "am", "be", "been", "do", "does", "did", "can", "could",
    "would", "should", "must", "might", "shall", "not", "all", "some", "any", "each", "every", "both", "though",
    "although", "because", "since", "while", "until", "unless", "whether", "than", "now", "once", "again", "too",
    "very", "even", "only", "never", "always", "perhaps", "please", "thanks", "sure", "really", "actually",
    "call", "email", "text", "message", "ask", "tell", "book", "buy", "order", "send", "check", "pick", "get",
    "grab", "remind", "schedule", "sign", "pay", "renew", "cancel", "return", "find", "take", "bring", "write",
    "finish", "start", "try", "set", "go", "look", "talk", "meet", "print", "clean", "fix", "move", "forget",
    "confirm", "update", "review", "submit", "reply", "plan", "prepare", "contact", "invite", "make", "put",
  ]

  /// The analysis an answer holds. The people are the names called persons, in order; the tasks
  /// are every sentence's, each keeping only the people that its own sentence names (a small
  /// model tends to attach everyone in the note to every task), or the one person its sentence
  /// names when the answer gives it nobody.
  func analysis(from content: GeneratedContent) throws -> NoteAnalysis {
    let bySentence = try content.value(GeneratedContent.self, forProperty: "sentences")
    var people: [String] = []
    var others: [String] = []
    // Each task with the persons its sentence names, for a task the answer gives nobody.
    var tasks: [(item: AnalyzedActionItem, sentencePersons: [String])] = []
    for (index, text) in sentences.enumerated() {
      let sentence = try bySentence.value(GeneratedContent.self, forProperty: String(index + 1))
      let names = TranscriptNames(text)
      var persons: [String] = []
      for name in try sentence.value([GeneratedContent].self, forProperty: "names") {
        let isPerson = try name.value(String.self, forProperty: "kind") == "person"
        let spelled = try name.value(String.self, forProperty: "name")
        if isPerson {
          people.append(spelled)
          if spelled.count > 1, names.mentions(spelled), !persons.contains(spelled) { persons.append(spelled) }
        } else {
          others.append(spelled)
        }
      }
      var items: [AnalyzedActionItem] = []
      for task in try sentence.value([GeneratedContent].self, forProperty: "tasks") {
        let state = try task.value(String.self, forProperty: "state")
        guard Self.actionStates.contains(state) else { continue }
        items.append(
          AnalyzedActionItem(
            isCompleted: state == "done", task: try task.value(String.self, forProperty: "task"),
            people: try task.value([String].self, forProperty: "people").filter { names.mentions($0) }))
      }
      // A small model sometimes states one task of a sentence twice, the second time in other
      // words ("Meet at the library", "Suggest meeting at the library"): the one whose words the
      // other holds all of goes.
      for item in items where !items.contains(where: { NoteAnalyzer.restates($0.task, item.task) }) {
        tasks.append((item, persons))
      }
    }
    // A task's people are persons: a company the model attached to a task is not one of them. A
    // name the answer gives a task without listing it at all is kept (the model sometimes leaves
    // a sentence's names out, and names its people only in its task).
    let persons = TranscriptNames(people.joined(separator: ", "))
    let nonPersons = TranscriptNames(others.joined(separator: ", "))
    let items = tasks.map { task, sentencePersons in
      var item = task
      item.people = item.people.filter { persons.mentions($0) || !nonPersons.mentions($0) }
      // A task left with nobody, in a sentence about one person ("Priya will send the budget to
      // Finance"), is about that person.
      if item.people.isEmpty, sentencePersons.count == 1 { item.people = sentencePersons }
      return item
    }
    return NoteAnalysis(
      title: try content.value(forProperty: "title"), summary: try content.value(forProperty: "summary"),
      tags: try content.value(forProperty: "tags"), people: people, actionItems: items)
  }

  /// What the answer looks like, for the instructions (the grammar holds the details).
  static let shape = """
    Answer with JSON: {"title": …, "summary": …, "tags": […], "sentences": {"1": {"text": the \
    transcript's first sentence, "names": [each proper name in it: {"name": …, "kind": \
    "\(kinds.joined(separator: "\", \""))"}], "tasks": [each task it states: {"state": "to do", \
    "done", "cancelled" or "event", "task": …, "people": […]}]}, "2": {…}, …}}, one entry for each sentence of the \
    transcript, in order. A sentence without names or tasks has "names":[] or "tasks":[].
    """

  /// Tokens the answer spends on copying the sentences and on the JSON around them, beyond the
  /// fields a model writes: the transcript's own tokens and about sixteen per sentence, with
  /// thirty more per sentence for what a sentence's names and tasks may take beyond the budget.
  func copiedTokens(transcriptTokens: Int) -> Int { transcriptTokens + 46 * sentences.count }

  /// The transcript's sentences: split after ".", "!" or "?" followed by a space, and at line
  /// breaks, but not after an abbreviated title ("Dr.") or an initial ("J.", "a.m."), and
  /// before a ", and" between two clauses (see `clauses(of:)`). A
  /// fragment of fewer than four words ("Okay.") joins the sentence after it. Quotes and
  /// backslashes become apostrophes and spaces, which keeps the copied text plain.
  static func sentences(of text: String) -> [String] {
    let plain = text.map { character -> Character in
      switch character {
      case "\"", "“", "”": "'"
      case "\\", "\t", "\r": " "
      default: character
      }
    }
    var pieces: [String] = []
    var current = ""
    var previous: Character = " "
    for character in plain {
      if character == "\n" || (character.isWhitespace && ".!?".contains(previous) && !endsWithAbbreviation(current)) {
        let piece = current.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if !piece.isEmpty { pieces.append(piece) }
        current = ""
      } else {
        current.append(character)
      }
      previous = character
    }
    let last = current.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    if !last.isEmpty { pieces.append(last) }
    var sentences: [String] = []
    var pending = ""
    for piece in pieces.flatMap(clauses) {
      let joined = pending.isEmpty ? piece : pending + " " + piece
      if joined.split(separator: " ").count < 4 {
        pending = joined
      } else {
        sentences.append(joined)
        pending = ""
      }
    }
    if !pending.isEmpty {
      if let lastSentence = sentences.popLast() {
        sentences.append(lastSentence + " " + pending)
      } else {
        sentences.append(pending)
      }
    }
    return sentences
  }

  /// A sentence split before each "and" that joins two clauses of at least four words each: one
  /// after a comma ("Bjørn will send the quote by Friday, | and Agnieszka will check the terms"),
  /// or one whose next word, past any filler ("and, um,"), is "I" or "we" ("Mina is doing the
  /// slides | and I've got the script"). A small model tends to list the first task of such a
  /// sentence and not the second, and the speaker's own part is where a clause of its own is a
  /// task.
  static func clauses(of sentence: String) -> [String] {
    let words = sentence.split(separator: " ")
    let bare = words.map {
      $0.lowercased().replacingOccurrences(of: "’", with: "'").trimmingCharacters(in: .punctuationCharacters)
    }
    var clauses: [String] = []
    var start = 0
    for index in words.indices.dropFirst() where bare[index] == "and" {
      let next = bare[(index + 1)...].first { !fillers.contains($0) }
      let joinsClauses = words[index - 1].hasSuffix(",") || next.map(speakerPronouns.contains) == true
      if joinsClauses, index - start >= 4, words.count - index >= 4 {
        clauses.append(words[start..<index].joined(separator: " "))
        start = index
      }
    }
    clauses.append(words[start...].joined(separator: " "))
    return clauses
  }

  /// Words a speaker fills a pause with.
  private static let fillers: Set<String> = ["um", "uh", "oh", "er", "erm", "hmm"]

  /// "I" and "we", alone or contracted with a verb: the speaker as a clause's subject.
  private static let speakerPronouns: Set<String> = [
    "i", "i'm", "i've", "i'll", "i'd", "we", "we're", "we've", "we'll", "we'd",
  ]

  /// Whether `text` ends with a word whose full stop is not a sentence's end: an abbreviated
  /// title, a single letter, or a dotted abbreviation such as "a.m.".
  private static func endsWithAbbreviation(_ text: String) -> Bool {
    guard let word = text.split(whereSeparator: \.isWhitespace).last, word.hasSuffix(".") else { return false }
    let bare = word.dropLast().trimmingCharacters(
      in: .punctuationCharacters.subtracting(CharacterSet(charactersIn: ".")))
    let lowered = bare.lowercased()
    return bare.count == 1 || bare.contains(".") || TranscriptNames.abbreviatedTitles.contains(lowered)
      || otherAbbreviations.contains(lowered)
  }

  /// Abbreviations with a full stop that are not titles before a name.
  private static let otherAbbreviations: Set<String> = ["jr", "vs"]
}
