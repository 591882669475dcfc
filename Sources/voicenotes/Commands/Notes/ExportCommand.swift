import AudioIO
import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes export`: notes as Markdown, JSON, text or subtitles, printed or written to files.
struct ExportCommand: ParsableCommand {
  static let format = Option<NoteExportFormat>(
    "format", short: "f", value: "format", help: "md (default), json, txt, srt or vtt.")
  static let output = Option<String>(
    "output", short: "o", value: "path",
    help: "Write to this file (one note) or into this folder (several; files named after the titles).")

  static let configuration = CommandConfiguration(
    name: "export", abstract: "Print notes as Markdown, JSON, plain text or subtitles, or write them to files.",
    discussion: """
      Without --output, one note is printed; several are printed one after another (JSON as one
      array). An existing file is never replaced unless --force is given.
      """,
    arguments: [ArgumentSpec(name: "id", help: "Note ids, or unique prefixes.", isRepeating: true)],
    options: [format, output, OutputOptions.words, OutputOptions.force, LibraryOption.option],
    examples: [
      Example("voicenotes export 3f2a", "The note as Markdown on standard output."),
      Example("voicenotes export 3f2a -f srt -o talk.srt", "The transcript as subtitles in talk.srt."),
      Example("voicenotes export $(voicenotes list --json | jq -r '.[].id') -o backup/", "Every note into backup/."),
    ])

  let ids: [String]
  let format: NoteExportFormat
  let output: URL?
  let words: Bool
  let force: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    ids = input.positionals
    format = try input.value(Self.format) ?? .md
    output = try input.value(Self.output).map { URL(fileURLWithPath: $0) }
    words = input.isSet(OutputOptions.words)
    force = input.isSet(OutputOptions.force)
    library = try LibraryOption.url(from: input)
    if words && format != .json { throw input.error("--words applies to --format json") }
    if output == nil && ids.count > 1 && (format == .srt || format == .vtt) {
      throw input.error("several subtitle files cannot share standard output; write them with --output FOLDER")
    }
  }

  func run() async throws {
    let app = try await LibraryOption.openExisting(library)
    let notes = try await LibraryOption.notes(ids, in: app)
    guard let output else {
      if format == .json && notes.count > 1 {
        try OutputOptions.printJSON(notes.map { NoteJSON($0, detail: words ? .words : .segments) })
      } else {
        print(try notes.map { try format.render($0, words: words) }.joined(separator: "\n"), terminator: "")
      }
      return
    }
    let destinations = try destinations(for: notes, output: output)
    var rendered: [(URL, String)] = []
    for (note, destination) in zip(notes, destinations) {
      rendered.append((destination, try format.render(note, words: words)))
    }
    for (destination, text) in rendered {
      do {
        try Data(text.utf8).write(to: destination, options: .atomic)
      } catch {
        throw CommandFailure(
          message: "\(destination.path): cannot write the file (\(FileSystemFailure.reason(for: error)))")
      }
      print(destination.path)
    }
  }

  /// Where each note goes: `output` itself for one note (unless it is a folder), else a file per
  /// note in the folder `output`, named after its title; refused when a file exists (without
  /// --force) or two notes would share a name.
  private func destinations(for notes: [VoiceNote], output: URL) throws -> [URL] {
    var isFolder: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: output.path, isDirectory: &isFolder)
    let destinations: [URL]
    if notes.count == 1 && !isFolder.boolValue && !output.path.hasSuffix("/") {
      destinations = [output]
    } else {
      if exists && !isFolder.boolValue {
        throw CommandFailure(message: "\(output.path) is a file; several notes need a folder for --output")
      }
      do {
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
      } catch {
        throw CommandFailure(
          message: "\(output.path): cannot create the folder (\(FileSystemFailure.reason(for: error)))")
      }
      var names: [String: Int] = [:]
      destinations = notes.map { note in
        var name = format.fileName(for: note)
        names[name, default: 0] += 1
        if names[name]! > 1 {
          let base = (name as NSString).deletingPathExtension
          name = "\(base) \(note.id.prefix(8)).\(format.rawValue)"
        }
        return output.appendingPathComponent(name)
      }
    }
    if !force, let existing = destinations.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
      throw CommandFailure(message: "\(existing.path) exists; pass --force to replace it, or choose another --output")
    }
    return destinations
  }
}
