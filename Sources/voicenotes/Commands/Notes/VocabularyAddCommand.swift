import Foundation
import VoiceNotes

/// `voicenotes vocabulary add`: add terms that transcription is biased toward from now on.
struct VocabularyAddCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "add", abstract: "Add terms (quote a term of several words); later transcriptions favour them.",
    arguments: [ArgumentSpec(name: "term", help: "A name, place or word, spelled your way.", isRepeating: true)],
    options: [LibraryOption.spec])

  let terms: [String]
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    terms = input.positionals
    library = LibraryOption.url(from: input)
    if terms.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { throw input.error("the term is empty") }
  }

  func run() async throws {
    var vocabulary = try PersonalVocabulary.load(from: library)
    let added = vocabulary.add(terms)
    try vocabulary.save(to: library)
    // Compile now, so a mistake shows here rather than in the next transcription.
    _ = try await PersonalVocabulary.prepared(in: library)
    for term in added { print("added \(term)") }
    if added.isEmpty { print("already there: \(terms.joined(separator: ", "))") }
  }
}
