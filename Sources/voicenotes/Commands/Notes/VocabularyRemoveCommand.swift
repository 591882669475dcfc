import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes vocabulary remove`: stop favouring terms.
struct VocabularyRemoveCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "remove", abstract: "Remove terms from the vocabulary.",
    discussion: "Terms that are there are removed even when others are not (those fail the command).",
    arguments: [ArgumentSpec(name: "term", help: "A term as listed (case does not matter).", isRepeating: true)],
    options: [OutputOptions.json, LibraryOption.option],
    examples: [Example("voicenotes vocabulary remove priya", "Removes \"Priya\", however it was typed.")])

  let terms: [String]
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    terms = input.positionals
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let (removed, missing) = try PersonalVocabulary.update(in: library) { $0.remove(terms) }
    if json {
      try OutputOptions.printJSON(["removed": removed, "missing": missing])
    } else {
      for term in removed { print("removed \(NoteFormatting.terminalText(term))") }
    }
    guard missing.isEmpty else {
      throw CommandFailure(
        message: "not in the vocabulary: \(missing.joined(separator: ", ")); `voicenotes vocabulary list` shows it")
    }
  }
}
