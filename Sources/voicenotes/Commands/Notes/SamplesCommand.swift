import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes samples restore`: add the bundled sample notes to the library.
struct SamplesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "samples", abstract: "Work with the bundled sample notes.", subcommands: [SamplesRestoreCommand.self],
    examples: [Example("voicenotes samples restore", "Add the bundled sample notes, transcribed and analysed.")])

  init(_ input: ParsedInput) throws(UsageError) {}

  func run() async throws {
    print(HelpFormatter.help(for: Self.configuration, commandPath: "voicenotes samples"), terminator: "")
  }
}
