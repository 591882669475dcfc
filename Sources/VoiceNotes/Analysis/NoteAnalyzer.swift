import Foundation
import LanguageModels
import Synchronization

/// Analyses transcripts with the on-device language model, however long they are.
///
/// A transcript of up to ``wordsPerPiece`` words that fits the context window (checked with
/// `tokenCount`) is analysed in one request. A longer one is split at sentence boundaries into
/// pieces of about equal length that fit, each piece is analysed, and the results are merged:
/// people and action items deduplicated, tags ranked by how often they occur, and one summary
/// written from the pieces' summaries.
///
/// Everything a request shares with every other (the instructions and the schema) comes first,
/// in the system message, and the transcript after it, so the engine evaluates the shared part
/// once and restores it for every later note, in this process or the next.
public struct NoteAnalyzer: Sendable {
  /// Where the schema's description goes in a request.
  public enum PromptLayout: Sendable, Equatable {
    /// In the system message, after the instructions: shared by every note, evaluated once.
    case schemaInInstructions
    /// In the user message, after the transcript (the earlier layout, kept for benchmarks).
    case schemaAfterTranscript
  }

  /// The model that analyses.
  public let model: SystemLanguageModel
  /// Tokens reserved for the response. The default leaves room for a dozen tasks of the length a
  /// small model writes for a story-like note; an answer stops as soon as its JSON is complete.
  public let responseBudget: Int
  /// Where the schema's description goes.
  public let layout: PromptLayout

  /// An analyzer that uses `model`.
  public init(
    model: SystemLanguageModel = .default, responseBudget: Int = 1000, layout: PromptLayout = .schemaInInstructions
  ) {
    self.model = model
    self.responseBudget = responseBudget
    self.layout = layout
  }

  /// The system message of every analysis request: the instructions, the answer's shape, then a
  /// worked example. It is the same for every note, so the engine evaluates it once.
  public static let instructionsWithSchema = Instructions(
    instructions.text + "\n\n" + AnalysisScaffold.shape + "\n\n" + example)

  /// The instructions every analysis request starts with.
  public static let instructions = Instructions(
    """
    You analyse transcripts of personal voice notes. The speaker says "I" and is never one of the \
    people. Use only what the transcript says; never invent details, names or tasks.
    Names: each proper name a sentence holds, spelled as in the transcript, with a title such as \
    Aunt or Dr. when it has one, and what it names. A person is someone called by name, even in \
    passing; a shop, business, brand or team is a company, and a street, town or venue a place. \
    Roles and relations without a name (my boss, Mom) are no names.
    Tasks: each task a sentence states: what the speaker has to do, what someone else will do, \
    what is already done (state "done"), and what the speaker cancels or decides against (state \
    "cancelled"). Something that already happened and that nobody has to do has state "event". \
    A feeling or an opinion is no task. A list of things to buy is one task ("Buy eggs, \
    rice and soap"). Write each task as a short imperative sentence in the transcript's words that \
    names the people it is about; its people are those named in it. A task already listed for an \
    earlier sentence is not listed again.
    Title: three to six words saying what the note is about, not its opening words. Summary: two \
    or three sentences of your own. Tags: one to five lowercase topics.
    """)

  /// A worked example: a small model follows a shown answer far more closely than a described
  /// one (others' tasks, done tasks, a shopping list, companies, a sentence with nothing to do, a
  /// past event and a cancelled plan, the last two given a state that keeps them out of the tasks).
  static let example = """
    Example transcript: "Back home. The kids loved the science fair. Mr. Brennan says the trip forms are due \
    Monday, so sign Theo's form tonight. Grace offered to drive on Friday, I need to confirm the time with her. \
    Pick up milk, bread and bananas at Safeway. I already paid the water bill this morning. The plumber came by at \
    noon and fixed the leak. Forget the pottery class, it's full. Marco from Brightline will send the new quote by \
    Thursday."
    Example answer: {"title":"School trip forms and weekly errands","summary":"Theo's school trip form is due \
    Monday and Grace offered a ride on Friday. Errands and a quote from Marco are \
    pending.","tags":["school","errands"],"sentences":{"1":{"text":"Back home. The kids loved the science \
    fair.","names":[],"tasks":[]},"2":{"text":"Mr. Brennan says the trip forms are due Monday, so sign Theo's form \
    tonight.","names":[{"name":"Mr. \
    Brennan","kind":"person"},{"name":"Theo","kind":"person"}],"tasks":[{"state":"to do","task":"Sign Theo's trip \
    form tonight","people":["Theo"]}]},"3":{"text":"Grace offered to drive on Friday, I need to confirm the time \
    with her.","names":[{"name":"Grace","kind":"person"}],"tasks":[{"state":"to do","task":"Confirm the Friday \
    drive time with Grace","people":["Grace"]}]},"4":{"text":"Pick up milk, bread and bananas at \
    Safeway.","names":[{"name":"Safeway","kind":"company"}],"tasks":[{"state":"to do","task":"Buy milk, bread and \
    bananas at Safeway","people":[]}]},"5":{"text":"I already paid the water bill this \
    morning.","names":[],"tasks":[{"state":"done","task":"Pay the water bill","people":[]}]},"6":{"text":"The \
    plumber came by at noon and fixed the leak.","names":[],"tasks":[{"state":"event","task":"Fix the \
    leak","people":[]}]},"7":{"text":"Forget the pottery class, it's \
    full.","names":[],"tasks":[{"state":"cancelled","task":"Sign up for the pottery \
    class","people":[]}]},"8":{"text":"Marco from Brightline will send the new quote by \
    Thursday.","names":[{"name":"Marco","kind":"person"},{"name":"Brightline","kind":"company"}],"tasks":[{"state":"to \
    do","task":"Marco to send the new quote by Thursday","people":["Marco"]}]}}}
    """

  /// What a transcript of several speakers is introduced with: who "I" is on each line, and that
  /// unnamed speakers ("Speaker 2") are nobody's name.
  static let conversationPreamble = """
    Analyse this transcript of a conversation. Each line starts with who speaks: a name, or \
    "Speaker" and a number for a voice nobody has named. On each line "I" is that speaker. A named \
    speaker is one of the people; "Speaker" with a number is not a name. An action item that a \
    named speaker takes on ("I'll send it") involves that speaker.
    """

  /// How far an analysis has got.
  public struct Progress: Sendable, Equatable {
    /// The share of pieces finished, 0...1 (a short transcript is one piece).
    public var fraction: Double
    /// Tokens generated so far, over every piece.
    public var tokens: Int
    /// The piece being analysed, from 1.
    public var piece: Int
    /// How many requests the analysis makes: the pieces, and one merge when there are several.
    public var pieces: Int
  }

  /// Analyses `transcript`, reporting progress as tokens are generated and pieces finish.
  ///
  /// - Parameter isConversation: Whether the transcript's lines start with who speaks
  ///   ("Priya: …", "Speaker 2: …"), so named speakers are people and the tasks they take on
  ///   name them.
  public func analyze(
    _ transcript: String, isConversation: Bool = false, progress: @escaping @Sendable (Progress) -> Void = { _ in }
  ) async throws -> NoteAnalysis {
    let text = transcript.trimmingCharacters(in: .whitespacesAndNewlines)
    let pieces = try await split(text)
    let requests = pieces.count + (pieces.count > 1 ? 1 : 0)
    let done = Mutex(0)
    let report: @Sendable (Int, Int) -> Void = { piece, tokens in
      let total = done.withLock { $0 } + tokens
      progress(
        Progress(fraction: Double(piece - 1) / Double(requests), tokens: total, piece: piece, pieces: requests))
    }
    var partial: [NoteAnalysis] = []
    for (index, piece) in pieces.enumerated() {
      let (analysis, tokens) = try await analyzePiece(piece, isConversation: isConversation) {
        report(index + 1, $0)
      }
      partial.append(analysis)
      done.withLock { $0 += tokens }
      report(index + 2, 0)
    }
    guard partial.count > 1 else { return partial[0] }
    let merged = try await merge(partial)
    progress(Progress(fraction: 1, tokens: done.withLock { $0 }, piece: requests, pieces: requests))
    return merged
  }

  // MARK: - One request

  private func analyzePiece(
    _ text: String, isConversation: Bool, tokens: @escaping @Sendable (Int) -> Void
  ) async throws -> (NoteAnalysis, Int) {
    let prompt = Prompt(
      (isConversation ? Self.conversationPreamble : "Analyse this voice note transcript:") + "\n\n\(text)")
    do {
      return try await analyzePiece(prompt, transcript: text, sampling: .greedy, tokens: tokens)
    } catch LanguageModelSession.GenerationError.decodingFailure {
      // Greedy decoding can fall into a loop (the same task again and again) and run out of
      // tokens; a second, sampled attempt takes another path.
      return try await analyzePiece(prompt, transcript: text, sampling: .random(top: 40, seed: 7), tokens: tokens)
    }
  }

  private func analyzePiece(
    _ prompt: Prompt, transcript: String, sampling: GenerationOptions.SamplingMode,
    tokens: @escaping @Sendable (Int) -> Void
  ) async throws -> (NoteAnalysis, Int) {
    let inInstructions = layout == .schemaInInstructions
    let session = LanguageModelSession(
      model: model, instructions: inInstructions ? Self.instructionsWithSchema : Self.instructions)
    let scaffold = AnalysisScaffold(transcript)
    let copied = scaffold.copiedTokens(transcriptTokens: try await model.tokenCount(for: transcript))
    let stream = session.streamResponse(
      to: prompt, schema: try scaffold.schema(), includeSchemaInPrompt: !inInstructions,
      options: GenerationOptions(sampling: sampling, maximumResponseTokens: responseBudget + copied))
    var generated = 0
    for try await snapshot in stream {
      generated = snapshot.tokenCount
      tokens(generated)
    }
    let response = try await stream.collect()
    return (Self.cleaned(try scaffold.analysis(from: response.content), transcript: transcript), generated)
  }

  /// Drops what the transcript does not support: people whose names it never mentions, empty
  /// tasks, duplicates. Tags come out lowercase, each once.
  static func cleaned(_ analysis: NoteAnalysis, transcript: String) -> NoteAnalysis {
    var result = analysis
    var seen = Set<String>()
    let names = TranscriptNames(transcript)
    result.actionItems = analysis.actionItems.compactMap { item in
      let key = fold(item.task)
      guard !key.isEmpty, isGrounded(item.task, in: transcript), seen.insert(key).inserted else { return nil }
      var item = item
      item.people = people(item.people, names: names)
      return item
    }
    // Someone a task involves is someone the note names, even when the model left them out of
    // the note's people.
    result.people = people(analysis.people + result.actionItems.flatMap(\.people), names: names)
    // A task that names people ("Email Dale the measurements") is about them, and not about
    // the others of its sentence that a small model tends to attach as well.
    for index in result.actionItems.indices {
      let task = TranscriptNames(result.actionItems[index].task)
      let named = result.people.filter { task.mentions($0) }
      if !named.isEmpty { result.actionItems[index].people = named }
    }
    result.tags = unique(
      analysis.tags.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
    if result.tags.isEmpty { result.tags = ["note"] }
    return result
  }

  /// The names among `candidates` that the transcript uses, spelled as it spells them, each
  /// once: a shorter form of a longer one ("Haddad" beside "Dr. Haddad") is left out. Relations
  /// and roles on their own ("Mom", "the candidate"), the pronoun "I" and the days of the week
  /// name nobody.
  static func people(_ candidates: [String], names: TranscriptNames) -> [String] {
    let spelled = unique(
      candidates.compactMap { candidate -> String? in
        let words = candidate.split(separator: " ")
        if words.count == 1,
          candidate.count < 2 || relations.contains(candidate.lowercased()) || weekdays.contains(fold(candidate))
        {
          return nil
        }
        return names.spelling(of: candidate)
      })
    return spelled.filter { name in
      let key = fold(name)
      return !spelled.contains { other in
        let longer = fold(other)
        return longer != key && (longer.hasSuffix(" " + key) || longer.hasPrefix(key + " "))
      }
    }
  }

  /// Whether a task is about what the transcript says: at least half of its content words (not
  /// counting the most common short words) occur in the transcript, allowing for other endings
  /// ("renew" for "renewal"). This drops tasks the model made up from nothing, such as generic
  /// errands in a note that asks for none.
  static func isGrounded(_ task: String, in transcript: String) -> Bool {
    let stems = Set(FullTextQuery.foldedWords(transcript).map(stem))
    let words = contentWords(of: task)
    guard !words.isEmpty else { return true }
    let found = words.filter { stems.contains(stem($0)) }.count
    return found * 2 >= words.count
  }

  /// The folded words of `task` that say what it is about: three letters or more, and not
  /// among ``commonWords``.
  private static func contentWords(of task: String) -> [String] {
    FullTextQuery.foldedWords(task).filter { $0.count >= 3 && !commonWords.contains($0) }
  }

  /// The first five letters of a folded word: a crude stem that joins "registration" and "register".
  private static func stem(_ word: String) -> String { String(word.prefix(5)) }

  /// Whether `task` says all that `other` says and more: every content word of `other` is one
  /// of `task`'s, allowing for other endings ("meet" in "meeting"), and `task` has more of them.
  /// The same task twice in one sentence's list.
  static func restates(_ task: String, _ other: String) -> Bool {
    let longer = Set(contentWords(of: task))
    let shorter = Set(contentWords(of: other))
    guard longer.count > shorter.count, !shorter.isEmpty else { return false }
    return shorter.allSatisfy { word in longer.contains { sameStem($0, word) } }
  }

  /// Whether two folded words are one with other endings: their first letters agree, up to five
  /// and as far as the shorter goes ("meet" and "meeting").
  static func sameStem(_ one: some StringProtocol, _ other: some StringProtocol) -> Bool {
    let length = min(one.count, other.count, 5)
    return one.prefix(length) == other.prefix(length)
  }

  /// Words too common to show what a task is about.
  static let commonWords: Set<String> = [
    "the", "and", "for", "with", "about", "from", "into", "that", "this", "these", "those", "their", "them",
    "they", "your", "our", "his", "her", "its", "any", "all", "some", "next", "before", "after", "out", "off",
    "get", "make", "have", "has", "had", "was", "were", "are", "will", "would", "should", "can", "could", "need",
    "needs", "want", "try", "sure", "also", "then", "there", "what", "when", "who", "how", "why", "not", "now",
  ]

  /// The days of the week, folded: capitalised like names, and listed as people by a small model
  /// ("Sunday" of "the party on Sunday"). Months are left alone: April, May and June are names too.
  static let weekdays: Set<String> = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.locale = Locale(identifier: "en_US_POSIX")
    return Set(calendar.weekdaySymbols.map(fold))
  }()

  /// Words for relations and roles that are capitalised when used as a name ("Mom said") but
  /// name nobody in particular on their own; with a name ("Aunt Rosa") they are kept.
  static let relations: Set<String> = [
    "mom", "mum", "mother", "dad", "father", "mama", "papa", "grandma", "grandpa", "granny", "nana",
    "grandmother", "grandfather", "sis", "bro", "auntie", "aunt", "uncle", "honey", "babe", "boss",
    "doctor", "doc", "candidate", "client", "customer", "team", "everyone", "someone", "speaker",
  ]

  // MARK: - Long transcripts

  /// The most words one request walks, about a minute and a half of speech: as long as the
  /// longest notes the sentence walk was measured on. A five-minute note cut only where the
  /// context was full (pieces of up to 29 sentences) had the default model give nearly every
  /// sentence a name and a task ("See the geese", "I" as a person), in 185 s; in pieces of about
  /// 200 words it took 119 s.
  static let wordsPerPiece = 200

  /// The transcript in pieces of whole sentences, of about equal length, that each hold about
  /// ``wordsPerPiece`` words or fewer (a sentence goes where its middle falls) and fit the context
  /// window with the instructions, the response, and the answer's copy of the piece's sentences.
  func split(_ text: String) async throws -> [String] {
    let room = try await model.contextSize - model.tokenCount(for: Self.instructionsWithSchema) - 120 - responseBudget
    // A piece is in the prompt once and copied into the answer, with JSON around each sentence.
    // The earlier layout also puts the piece's schema, which lists every sentence, in the prompt.
    let schemaInPrompt = layout == .schemaAfterTranscript
    let fits = { (piece: String) async throws -> Bool in
      let tokens = try await self.model.tokenCount(for: piece)
      let scaffold = AnalysisScaffold(piece)
      let schemaTokens =
        schemaInPrompt ? try await self.model.tokenCount(for: scaffold.schema().promptDescription()) : 0
      return tokens + scaffold.copiedTokens(transcriptTokens: tokens) + schemaTokens <= room
    }
    guard room / 3 > 64 else {
      throw LanguageModelSession.GenerationError.exceededContextWindowSize(
        .init(debugDescription: "the context of \(model.contextSize) tokens leaves no room for a transcript"))
    }
    let wordCount = { (piece: String) in piece.split(whereSeparator: \.isWhitespace).count }
    let words = wordCount(text)
    if words <= Self.wordsPerPiece, try await fits(text) { return [text] }
    // Pieces of about equal length: 450 words go as three of about 150, not as 200, 200 and 50.
    // Each piece aims at the words still to place over the pieces still to fill, and a sentence
    // goes into the piece its middle falls in.
    var piecesLeft = (words + Self.wordsPerPiece - 1) / Self.wordsPerPiece
    var wordsLeft = words
    var pieces: [String] = []
    var current = ""
    for sentence in AnalysisScaffold.sentences(of: text) {
      let candidate = current.isEmpty ? sentence : current + " " + sentence
      let middle = Double(wordCount(current)) + Double(wordCount(sentence)) / 2
      if current.isEmpty || middle <= Double(wordsLeft) / Double(piecesLeft), try await fits(candidate) {
        current = candidate
        continue
      }
      if !current.isEmpty {
        pieces.append(current)
        wordsLeft -= wordCount(current)
        piecesLeft = max(piecesLeft - 1, 1)
      }
      // A single sentence longer than the room is cut by words.
      current = try await fitting(sentence, budget: room / 3, into: &pieces)
    }
    if !current.isEmpty { pieces.append(current) }
    return pieces
  }

  private func fitting(_ sentence: String, budget: Int, into pieces: inout [String]) async throws -> String {
    guard try await model.tokenCount(for: sentence) > budget else { return sentence }
    var current = ""
    for word in sentence.split(separator: " ") {
      let candidate = current.isEmpty ? String(word) : current + " " + word
      if try await model.tokenCount(for: candidate) > budget, !current.isEmpty {
        pieces.append(current)
        current = String(word)
      } else {
        current = candidate
      }
    }
    return current
  }

  /// Writes one title, summary and tag list from the pieces' analyses.
  private func merge(_ parts: [NoteAnalysis]) async throws -> NoteAnalysis {
    var people: [String] = []
    var items: [AnalyzedActionItem] = []
    var tagCounts: [String: Int] = [:]
    for part in parts {
      people += part.people
      items += part.actionItems
      for tag in part.tags { tagCounts[tag.lowercased(), default: 0] += 1 }
    }
    let session = LanguageModelSession(
      model: model,
      instructions: "You combine the summaries of consecutive parts of one voice note. Use only what they say.")
    let summaries = parts.enumerated().map { "Part \($0.offset + 1): \($0.element.summary)" }.joined(separator: "\n")
    let combined = try await session.respond(
      to: Prompt("Write one title and one summary for the whole note from these part summaries:\n\n\(summaries)"),
      generating: CombinedSummary.self, options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 300)
    ).content
    var seen = Set<String>()
    let uniqueItems = items.filter { seen.insert(Self.fold($0.task)).inserted }
    let tags = tagCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(5).map(\.key)
    return NoteAnalysis(
      title: combined.title, summary: combined.summary, tags: Array(tags), people: Self.unique(people),
      actionItems: uniqueItems)
  }

  static func fold(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
      .filter { $0.isLetter || $0.isNumber || $0 == " " }
  }

  static func unique(_ values: [String]) -> [String] {
    var seen = Set<String>()
    return values.filter { seen.insert(fold($0)).inserted }
  }
}

/// The title and summary of a long note, written from its parts.
@Generable(description: "A title and summary for a whole voice note")
struct CombinedSummary {
  @Guide(description: "A title for the note, three to eight words", .pattern(NoteAnalysis.titlePattern))
  var title: String

  @Guide(
    description: "A summary of the whole note in two or three sentences", .pattern(NoteAnalysis.fullSummaryPattern))
  var summary: String
}
