import Foundation
import VoiceNotes

/// `voicenotes vocabulary remove`: stop favouring terms.
struct VocabularyRemoveCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "remove", abstract: "Remove terms from the vocabulary.",
    arguments: [ArgumentSpec(name: "term", help: "A term as listed (case does not matter).", isRepeating: true)],
    options: [LibraryOption.spec])

  let terms: [String]
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    terms = input.positionals
    library = LibraryOption.url(from: input)
  }

  func run() async throws {
    var vocabulary = try PersonalVocabulary.load(from: library)
    let missing = vocabulary.remove(terms)
    try vocabulary.save(to: library)
    guard missing.isEmpty else {
      throw CommandFailure(
        message: "not in the vocabulary: \(missing.joined(separator: ", ")); `voicenotes vocabulary list` shows it")
    }
    for term in terms { print("removed \(term)") }
  }
}
