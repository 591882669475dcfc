import Foundation
import LanguageModels
import Synchronization

/// Analyses transcripts with the on-device language model, however long they are.
///
/// A transcript that fits the context window (checked with `tokenCount`) is analysed in one
/// request. A longer one is split at sentence boundaries into pieces that fit, each piece is
/// analysed, and the results are merged: people and action items deduplicated, tags ranked by
/// how often they occur, and one summary written from the pieces' summaries.
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

  /// The system message of every analysis request: the instructions, then the schema's
  /// description.
  public static let instructionsWithSchema = Instructions(
    instructions.text + "\n\nRespond with JSON that follows this schema:\n"
      + NoteAnalysis.generationSchema.promptDescription())

  /// The instructions every analysis request starts with.
  public static let instructions = Instructions(
    """
    You analyse transcripts of personal voice notes. The speaker says "I"; the speaker is never \
    one of the people. Use only what the transcript says; never invent details, names or tasks.
    People: every person the transcript calls by a proper name, spelled as in the transcript, \
    with a title such as Aunt or Dr. when the transcript uses one. Not roles or relations \
    without a name (the candidate, my boss, Mom), not companies or places.
    Action items: each separate thing still to be done (a call, email, question to ask, \
    purchase, booking, appointment, payment or follow-up), once, as a short imperative sentence \
    that keeps the transcript's words, with the named people it involves. An instruction in the \
    note ("book...", "ask...", "need to...") is an action item. Mark one completed only when the \
    transcript says it is already done. A note with nothing to do has no action items.
    Title: three to six words naming the main subject. Summary: one or two sentences in your \
    own words, shorter than the transcript.
    """)

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
    let stream = session.streamResponse(
      to: prompt, generating: NoteAnalysis.self, includeSchemaInPrompt: !inInstructions,
      options: GenerationOptions(sampling: sampling, maximumResponseTokens: responseBudget))
    var generated = 0
    for try await snapshot in stream {
      generated = snapshot.tokenCount
      tokens(generated)
    }
    let response = try await stream.collect()
    return (Self.cleaned(response.content, transcript: transcript), generated)
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
    result.tags = unique(
      analysis.tags.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
    if result.tags.isEmpty { result.tags = ["note"] }
    return result
  }

  /// The names among `candidates` that the transcript uses, spelled as it spells them, each
  /// once: a shorter form of a longer one ("Haddad" beside "Dr. Haddad") is left out. Relations
  /// and roles on their own ("Mom", "the candidate") and the pronoun "I" name nobody.
  static func people(_ candidates: [String], names: TranscriptNames) -> [String] {
    let spelled = unique(
      candidates.compactMap { candidate -> String? in
        let words = candidate.split(separator: " ")
        if words.count == 1, candidate.count < 2 || relations.contains(candidate.lowercased()) { return nil }
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
    let words = FullTextQuery.foldedWords(task).filter { $0.count >= 3 && !commonWords.contains($0) }
    guard !words.isEmpty else { return true }
    let found = words.filter { stems.contains(stem($0)) }.count
    return found * 2 >= words.count
  }

  /// The first five letters of a folded word: a crude stem that joins "registration" and "register".
  private static func stem(_ word: String) -> String { String(word.prefix(5)) }

  /// Words too common to show what a task is about.
  static let commonWords: Set<String> = [
    "the", "and", "for", "with", "about", "from", "into", "that", "this", "these", "those", "their", "them",
    "they", "your", "our", "his", "her", "its", "any", "all", "some", "next", "before", "after", "out", "off",
    "get", "make", "have", "has", "had", "was", "were", "are", "will", "would", "should", "can", "could", "need",
    "needs", "want", "try", "sure", "also", "then", "there", "what", "when", "who", "how", "why", "not", "now",
  ]

  /// Words for relations and roles that are capitalised when used as a name ("Mom said") but
  /// name nobody in particular on their own; with a name ("Aunt Rosa") they are kept.
  static let relations: Set<String> = [
    "mom", "mum", "mother", "dad", "father", "mama", "papa", "grandma", "grandpa", "granny", "nana",
    "grandmother", "grandfather", "sis", "bro", "auntie", "aunt", "uncle", "honey", "babe", "boss",
    "doctor", "doc", "candidate", "client", "customer", "team", "everyone", "someone", "speaker",
  ]

  // MARK: - Long transcripts

  /// The transcript in pieces that each fit the context window with the instructions, schema and
  /// response.
  func split(_ text: String) async throws -> [String] {
    let overhead =
      try await model.tokenCount(for: Self.instructions)
      + model.tokenCount(for: NoteAnalysis.generationSchema.promptDescription()) + 120
    let budget = model.contextSize - overhead - responseBudget
    guard budget > 64 else {
      throw LanguageModelSession.GenerationError.exceededContextWindowSize(
        .init(debugDescription: "the context of \(model.contextSize) tokens leaves no room for a transcript"))
    }
    if try await model.tokenCount(for: text) <= budget { return [text] }
    var pieces: [String] = []
    var current = ""
    for sentence in Self.sentences(of: text) {
      let candidate = current.isEmpty ? sentence : current + " " + sentence
      if try await model.tokenCount(for: candidate) <= budget {
        current = candidate
        continue
      }
      if !current.isEmpty { pieces.append(current) }
      // A single sentence longer than the budget is cut by words.
      current = try await fitting(sentence, budget: budget, into: &pieces)
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

  /// Splits after sentence-ending punctuation followed by a space.
  static func sentences(of text: String) -> [String] {
    var sentences: [String] = []
    var current = ""
    var previous: Character = " "
    for character in text {
      if character.isWhitespace, ".!?".contains(previous) {
        let sentence = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !sentence.isEmpty { sentences.append(sentence) }
        current = ""
      } else {
        current.append(character)
      }
      previous = character
    }
    let last = current.trimmingCharacters(in: .whitespacesAndNewlines)
    if !last.isEmpty { sentences.append(last) }
    return sentences.isEmpty ? [text] : sentences
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

  @Guide(description: "A summary of the whole note in two or three sentences", .pattern(NoteAnalysis.summaryPattern))
  var summary: String
}
