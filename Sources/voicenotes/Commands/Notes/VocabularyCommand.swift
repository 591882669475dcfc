import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes vocabulary`: the names, places and jargon every transcription should spell right.
struct VocabularyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "vocabulary", abstract: "Teach transcription your names, places and jargon.",
    subcommands: [VocabularyAddCommand.self, VocabularyListCommand.self, VocabularyRemoveCommand.self],
    examples: [Example("voicenotes vocabulary add Priya Okonkwo", "Spell these names right from now on.")])

  init(_ input: ParsedInput) throws(UsageError) {}

  func run() async throws {
    print(HelpFormatter.help(for: Self.configuration, commandPath: "voicenotes vocabulary"), terminator: "")
  }
}
