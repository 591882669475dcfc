import Foundation
import VoiceNotes

/// `voicenotes export`: a note as Markdown, JSON, text or subtitles.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "export", abstract: "Print a note as Markdown, JSON, plain text or subtitles.",
    arguments: [ArgumentSpec(name: "id", help: "The note's id, or a unique prefix.")],
    options: [
      .option(
        "format", short: "f", value: "format", help: "md (default), json, txt, srt or vtt.",
        allowed: ["md", "json", "txt", "srt", "vtt"]),
      LibraryOption.spec,
    ])

  let id: String
  let format: String
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    id = input.positionals[0]
    format = input.value("format") ?? "md"
    library = LibraryOption.url(from: input)
  }

  func run() async throws {
    let note = try await LibraryOption.open(library).note(id)
    let format = NoteExportFormat(rawValue: format) ?? .md
    print(try format.render(note), terminator: "")
  }
}
