import AudioIO
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
      library already holds is skipped unless --again is given. A folder is searched, with its
      subfolders, for files with an audio extension (hidden files are left out). The ids of the notes
      (new, or the one that already holds a recording) go to standard output, one a line.
      """,
    arguments: [ArgumentSpec(name: "file", help: "Audio files, or folders of them.", isRepeating: true)],
    options: [LibraryOption.noProcess, again, OutputOptions.json, OutputOptions.quiet, LibraryOption.option],
    examples: [
      Example("voicenotes import memo.m4a", "Import, transcribe and analyse one recording."),
      Example("voicenotes import --no-process ~/Recordings/*.wav", "Save many now; `voicenotes resume` later."),
      Example("voicenotes import ~/Recordings", "Every recording in the folder and its subfolders."),
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
    let urls = try Self.recordings(in: files)
    for (index, url) in urls.enumerated() {
      let position = urls.count > 1 ? "[\(index + 1)/\(urls.count)] " : ""
      do {
        let note: VoiceNote
        if again {
          note = try await app.importAudio(from: url)
        } else {
          let (found, alreadyPresent) = try await app.importAudioUnlessPresent(from: url)
          if alreadyPresent {
            skipped.append(found)
            ProgressReporter.write(
              "\(position)\(url.lastPathComponent): already in the library as note \(found.id.prefix(8)) "
                + "(\(NoteFormatting.terminalText(found.title))); not imported again (--again imports it anyway)\n")
            continue
          }
          note = found
        }
        imported.append(note)
        progress.finish("\(position)saved \(url.lastPathComponent) as note \(note.id.prefix(8))")
      } catch {
        failures += 1
        CommandRunner.report(FailureText.describe(error))
      }
    }
    if process { failures += try await LibraryOption.process(imported, in: app, progress: progress) }
    try await LibraryOption.printNotes(imported + skipped, in: app, json: json)
    if failures > 0 { throw CommandFailure(message: "\(failures) file(s) failed", alreadyReported: true) }
  }

  /// The files `paths` name, in order: a file as given, a folder as the audio files in it and its
  /// subfolders (by extension, hidden ones left out), sorted by path. A folder with none is an error.
  static func recordings(in paths: [String]) throws -> [URL] {
    var urls: [URL] = []
    for path in paths {
      let url = URL(fileURLWithPath: path)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else {
        urls.append(url)
        continue
      }
      let found = try audioFiles(under: url)
      if found.isEmpty {
        throw CommandFailure(
          message: "\(path): the folder holds no audio files (\(AudioFile.commonExtensions.joined(separator: ", ")))")
      }
      urls += found
    }
    return urls
  }

  private static func audioFiles(under folder: URL) throws -> [URL] {
    guard
      let walker = FileManager.default.enumerator(
        at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
    else { throw CommandFailure(message: "\(folder.path): the folder cannot be read; check its permissions") }
    let extensions = Set(AudioFile.commonExtensions)
    var found: [URL] = []
    for case let url as URL in walker where extensions.contains(url.pathExtension.lowercased()) {
      if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { found.append(url) }
    }
    return found.sorted { $0.path < $1.path }
  }
}
