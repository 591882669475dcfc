import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes speakers`: who speaks in notes, and the voices the library remembers by name.
struct SpeakersCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "speakers", abstract: "Name the speakers of notes; named voices are recognised in later notes.",
    discussion:
      "Notes with several voices label each segment \"Speaker 1\", \"Speaker 2\"... Name a speaker once and the "
      + "library remembers the voice: later notes of the same voice are labelled with the name.",
    subcommands: [
      SpeakersListCommand.self, SpeakersNameCommand.self, SpeakersUnnameCommand.self, SpeakersRenameCommand.self,
      SpeakersMergeCommand.self, SpeakersForgetCommand.self,
    ],
    examples: [
      Example("voicenotes speakers name 3f2a 2 Priya", "Speaker 2 of note 3f2a is Priya, from now on."),
      Example("voicenotes speakers list", "The named voices and in how many notes each speaks."),
    ])

  init(_ input: ParsedInput) throws(UsageError) {}

  func run() async throws {
    print(HelpFormatter.help(for: Self.configuration, commandPath: "voicenotes speakers"), terminator: "")
  }

  /// A speaker's number from the command line: "2" or "speaker 2".
  static func number(_ text: String, input: ParsedInput) throws(UsageError) -> Int {
    let digits = text.lowercased().replacingOccurrences(of: "speaker", with: "").trimmingCharacters(in: .whitespaces)
    guard let number = Int(digits), number >= 1 else {
      throw input.error("'\(text)' is not a speaker number; give the number shown, such as 2 for \"Speaker 2\"")
    }
    return number
  }

  /// The note's speakers, one line each, as `name` and `unname` print them.
  static func printSpeakers(of note: VoiceNote) {
    for speaker in note.speakers {
      let how = speaker.name == nil ? "" : speaker.isConfirmed ? "" : " (recognised)"
      print(
        "\(NoteFormatting.shortID(note.id))  speaker \(speaker.number): \(NoteFormatting.terminalText(speaker.label))\(how)"
      )
    }
  }
}
