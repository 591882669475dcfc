import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes vocabulary add`: add terms that transcription is biased toward from now on.
struct VocabularyAddCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "add", abstract: "Add terms (quote a term of several words); later transcriptions favour them.",
    arguments: [ArgumentSpec(name: "term", help: "A name, place or word, spelled your way.", isRepeating: true)],
    options: [OutputOptions.json, LibraryOption.option],
    examples: [Example("voicenotes vocabulary add Priya \"Nguyen & Sons\"", "Two terms; the second of several words.")])

  let terms: [String]
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    terms = input.positionals
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
    if terms.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { throw input.error("the term is empty") }
  }

  func run() async throws {
    let (added, allTerms) = try PersonalVocabulary.update(in: library) { vocabulary in
      let added = try vocabulary.add(terms)
      return (added, vocabulary.terms)
    }
    // Compile now, so a mistake shows here rather than in the next transcription.
    _ = try await PersonalVocabulary.prepared(in: library)
    if json {
      try OutputOptions.printJSON(["added": added, "terms": allTerms])
      return
    }
    for term in added { print("added \(NoteFormatting.terminalText(term))") }
    if added.isEmpty { print("already there: \(NoteFormatting.terminalText(terms.joined(separator: ", ")))") }
  }
}
