import Foundation
import VoiceNotes

/// `voicenotes vocabulary list`: the terms transcription favours.
struct VocabularyListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "list", abstract: "List the vocabulary, one term a line.",
    options: [.flag("json", help: "Print a JSON array."), LibraryOption.spec])

  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    json = input.flag("json")
    library = LibraryOption.url(from: input)
  }

  func run() async throws {
    let terms = try PersonalVocabulary.load(from: library).terms
    if json {
      print(String(decoding: try JSONEncoder().encode(terms), as: UTF8.self))
    } else {
      for term in terms { print(term) }
    }
  }
}
