import CommandLineParsing
import Foundation
import LanguageModels
import VoiceNotes

/// `voicenotes ask`: answers a question from the notes, citing where each fact was said.
struct AskCommand: ParsableCommand {
  static let model = ModelOptions.language("model", short: "m", purpose: "Language model")

  static let configuration = CommandConfiguration(
    name: "ask", abstract: "Ask your notes a question; the answer cites the note and moment each fact is from.",
    discussion:
      "The question is searched for by words and meaning, and the language model answers from what was found, calling tools to look further. When the notes do not hold the answer it says so. With no question given, questions are read one a line from standard input, each a follow-up of the ones before.",
    arguments: [
      ArgumentSpec(
        name: "question", help: "What to ask, for example: what did I promise Kofi?", isRepeating: true,
        isOptional: true)
    ],
    options: [model, OutputOptions.json, LibraryOption.option],
    examples: [
      Example("voicenotes ask what did I promise the finance team", "An answer with its sources."),
      Example("printf 'who is Mei Lin?\\nwhat does she need?\\n' | voicenotes ask", "A conversation of follow-ups."),
    ])

  let question: String
  let weights: LanguageModelWeights?
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    question = input.positionals.joined(separator: " ")
    weights = try input.value(Self.model)
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let app = try await LibraryOption.openExisting(library)
    if !json, try await app.count() == 0 {
      print("No notes to ask about yet. " + LibraryOption.addNotesHint)
      return
    }
    let model = weights.map { SystemLanguageModel(weights: $0) } ?? app.languageModel
    if let explanation = model.unavailabilityExplanation { throw CommandFailure(message: explanation) }
    let assistant = NoteAssistant(library: app, model: model)
    if !question.trimmingCharacters(in: .whitespaces).isEmpty {
      try await answer(question, with: assistant)
      return
    }
    var asked = 0
    while let line = readLine() {
      guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
      if asked > 0, !json { print("") }
      try await answer(line, with: assistant)
      asked += 1
    }
    if asked == 0 {
      throw CommandFailure(message: "no question given; pass one, or write questions one a line to standard input")
    }
  }

  /// Asks one question, streaming the answer to the terminal (or printing it as JSON at the end).
  private func answer(_ question: String, with assistant: NoteAssistant) async throws {
    let streaming = !json
    if streaming, readsFromStandardInput { print("> \(question)") }
    let answer = try await assistant.ask(question) { piece in
      if streaming {
        FileHandle.standardOutput.write(Data(NoteFormatting.terminalText(piece).utf8))
      }
    }
    if json {
      struct Output: Encodable {
        var question: String
        var answer: String
        var abstained: Bool
        var citations: [NoteCitation]
      }
      try OutputOptions.printJSON(
        Output(question: question, answer: answer.text, abstained: answer.isAbstention, citations: answer.citations))
      return
    }
    print("")
    guard !answer.citations.isEmpty else { return }
    print(TerminalStyle.apply(.dim, "Sources:"))
    for citation in answer.citations {
      print(
        "  [\(citation.number)] " + NoteFormatting.terminalText(citation.label) + "  "
          + TerminalStyle.apply(.dim, NoteFormatting.shortID(citation.noteID)))
    }
  }

  private var readsFromStandardInput: Bool { question.trimmingCharacters(in: .whitespaces).isEmpty }
}
