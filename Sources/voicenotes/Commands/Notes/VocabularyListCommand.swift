import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes vocabulary list`: the terms transcription favours.
struct VocabularyListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List the vocabulary, one term a line.",
    options: [OutputOptions.json, LibraryOption.option],
    examples: [Example("voicenotes vocabulary list", "Every term, as stored.")])

  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let terms = try PersonalVocabulary.load(from: library).terms
    if json {
      try OutputOptions.printJSON(terms)
    } else if terms.isEmpty {
      ProgressReporter.write("The vocabulary is empty. Add names and jargon with `voicenotes vocabulary add TERM`.\n")
    } else {
      for term in terms { print(NoteFormatting.terminalText(term)) }
    }
  }
}
