import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes rename`: give a note a title of the person's choosing.
struct RenameCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "rename", abstract: "Give a note a new title (analysis will not change it afterwards).",
    discussion: "A title is one line of at most 200 characters; control characters become spaces.",
    arguments: [
      ArgumentSpec(name: "id", help: "The note's id, or a unique prefix."),
      ArgumentSpec(name: "title", help: "The new title.", isRepeating: true),
    ],
    options: [OutputOptions.json, LibraryOption.option],
    examples: [Example("voicenotes rename 3f2a Budget call with Priya", "Retitle a note; no quotes needed.")])

  let id: String
  let title: String
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals[0]
    title = input.positionals.dropFirst().joined(separator: " ").trimmingCharacters(in: .whitespaces)
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
    if title.isEmpty { throw input.error("the new title is empty") }
  }

  func run() async throws {
    let note = try await LibraryOption.openExisting(library).rename(id, to: title)
    if json {
      try OutputOptions.printJSON(NoteJSON(note, detail: .overview))
    } else {
      print("\(NoteFormatting.shortID(note.id))  \(NoteFormatting.terminalText(note.title))")
    }
  }
}
