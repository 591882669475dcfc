import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes import`: save recordings as notes, then transcribe and analyse them.
struct ImportCommand: ParsableCommand {
  static let again = Flag("again", help: "Import a recording even when the library already holds the same audio.")

  static let configuration = CommandConfiguration(
    name: "import",
    abstract: "Import recordings as notes, then transcribe and analyse them.",
    discussion: """
      Each file is copied into the library unchanged (a link is followed: the library keeps the audio
      itself) and saved as a note at once; a file that is not audio is refused, and a recording the
      library already holds is skipped unless --again is given. The ids of the notes (new, or the one
      that already holds a recording) go to standard output, one a line.
      """,
    arguments: [ArgumentSpec(name: "file", help: "Audio files to import.", isRepeating: true)],
    options: [LibraryOption.noProcess, again, OutputOptions.json, OutputOptions.quiet, LibraryOption.option],
    examples: [
      Example("voicenotes import memo.m4a", "Import, transcribe and analyse one recording."),
      Example("voicenotes import --no-process ~/Recordings/*.wav", "Save many now; `voicenotes resume` later."),
    ])

  let files: [String]
  let process: Bool
  let again: Bool
  let json: Bool
  let quiet: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    files = input.positionals
    process = !input.isSet(LibraryOption.noProcess)
    again = input.isSet(Self.again)
    json = input.isSet(OutputOptions.json)
    quiet = input.isSet(OutputOptions.quiet)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let app = try await LibraryOption.open(library)
    let progress = ProgressReporter(quiet: quiet)
    var imported: [VoiceNote] = []
    var skipped: [VoiceNote] = []
    var failures = 0
    for path in files {
      let url = URL(fileURLWithPath: path)
      do {
        let note: VoiceNote
        if again {
          note = try await app.importAudio(from: url)
        } else {
          let (found, alreadyPresent) = try await app.importAudioUnlessPresent(from: url)
          if alreadyPresent {
            skipped.append(found)
            ProgressReporter.write(
              "\(url.lastPathComponent): already in the library as note \(found.id.prefix(8)) "
                + "(\(NoteFormatting.terminalText(found.title))); not imported again (--again imports it anyway)\n")
            continue
          }
          note = found
        }
        imported.append(note)
        progress.finish("saved \(url.lastPathComponent) as note \(note.id.prefix(8))")
      } catch {
        failures += 1
        CommandRunner.report(FailureText.describe(error))
      }
    }
    if process { failures += try await LibraryOption.process(imported, in: app, progress: progress) }
    try await LibraryOption.printNotes(imported + skipped, in: app, json: json)
    if failures > 0 { throw CommandFailure(message: "\(failures) file(s) failed", alreadyReported: true) }
  }
}
