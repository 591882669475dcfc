import AudioIO
import CommandLineParsing
import Foundation
import SpeechRecognition
import VoiceNotes

/// `voicenotes transcribe`: audio files to text, on this machine.
struct TranscribeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "transcribe",
    abstract: "Transcribe audio files to text on this machine.",
    discussion: """
      Reads WAV, FLAC, MP3, Ogg Vorbis, Opus and m4a (AAC or ALAC), and anything else FFmpeg decodes.
      Text goes to standard output (or to --output-dir), progress to standard error. A missing model
      is downloaded and installed first.
      """,
    arguments: [ArgumentSpec(name: "file", help: "Audio files to transcribe.", isRepeating: true)],
    options: [
      model, language, format, timestamps, outputDirectory, OutputOptions.words, OutputOptions.force,
      OutputOptions.quiet,
    ],
    examples: [
      Example("voicenotes transcribe memo.m4a", "The text on standard output."),
      Example("voicenotes transcribe -l de -f srt -o subtitles/ *.mp3", "German subtitles, one .srt per file."),
      Example("voicenotes transcribe -f json --words talk.wav", "Segments and every word's timing, as JSON."),
    ])

  static let model = ModelOptions.speech("model", short: "m", purpose: "Speech model")
  static let language = Option<String>(
    "language", short: "l", value: "language", help: "Spoken language: auto (default) or a code such as en, de, fr.")
  static let format = Option<TranscriptFormat>(
    "format", short: "f", value: "format", help: "Output: txt (default), json, srt or vtt.")
  static let timestamps = Flag("timestamps", help: "Start each text line with its time range.")
  static let outputDirectory = Option<String>(
    "output-dir", short: "o", value: "folder", help: "Write <name>.<format> files here instead of printing.")

  let files: [String]
  let model: SpeechModel
  let locale: Locale?
  let format: TranscriptFormat
  let timestamps: Bool
  let outputDirectory: URL?
  let words: Bool
  let force: Bool
  let quiet: Bool

  init(_ input: ParsedInput) throws(UsageError) {
    files = input.positionals
    model = try input.value(Self.model) ?? .default
    let language = try input.value(Self.language) ?? "auto"
    if language == "auto" {
      locale = model.isMultilingual ? nil : Locale(identifier: "en")
    } else {
      guard let supported = SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: language), model: model)
      else {
        throw input.error("the '\(model.name)' model cannot transcribe language '\(language)'")
      }
      locale = supported
    }
    format = try input.value(Self.format) ?? .txt
    timestamps = input.isSet(Self.timestamps)
    outputDirectory = try input.value(Self.outputDirectory).map { URL(fileURLWithPath: $0, isDirectory: true) }
    words = input.isSet(OutputOptions.words)
    force = input.isSet(OutputOptions.force)
    quiet = input.isSet(OutputOptions.quiet)
    if words && format != .json { throw input.error("--words applies to --format json") }
    if let outputDirectory {
      var seen: [String: String] = [:]
      for path in files {
        let name = Self.outputName(for: URL(fileURLWithPath: path), format: format)
        if let other = seen[name] {
          throw input.error(
            "\(other) and \(path) would both be written to \(outputDirectory.appendingPathComponent(name).path); "
              + "transcribe them into different folders")
        }
        seen[name] = path
      }
    }
  }

  /// The file a transcript of `url` is written to in the output folder.
  static func outputName(for url: URL, format: TranscriptFormat) -> String {
    url.deletingPathExtension().lastPathComponent + "." + format.rawValue
  }

  func run() async throws {
    let progress = ProgressReporter(quiet: quiet)
    try await ModelsInstallCommand.ensureInstalled(model, progress: progress)
    if let outputDirectory {
      try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
      if !force {
        for path in files {
          let destination = outputDirectory.appendingPathComponent(
            Self.outputName(for: URL(fileURLWithPath: path), format: format))
          if FileManager.default.fileExists(atPath: destination.path) {
            throw CommandFailure(message: "\(destination.path) exists; pass --force to replace it")
          }
        }
      }
    }
    let transcriber = FileTranscriber(model: model, locale: locale)
    let writer = format.writer(timestamps: timestamps, words: words)
    var failures = 0
    var documents: [String] = []
    for path in files {
      let url = URL(fileURLWithPath: path)
      let name = url.lastPathComponent
      do {
        let started = Date()
        let transcript = try await transcriber.transcribe(url) { fraction in
          progress.update("\(name): transcribing", fraction: fraction)
        }
        let seconds = Date().timeIntervalSince(started)
        progress.finish(
          String(
            format: "%@: %.1f s of audio in %.1f s (%.1fx real time)", name, transcript.duration, seconds,
            transcript.duration / max(seconds, 0.001)))
        let rendered = writer.render(transcript)
        if let outputDirectory {
          let destination = outputDirectory.appendingPathComponent(Self.outputName(for: url, format: format))
          try Data(rendered.utf8).write(to: destination, options: .atomic)
        } else if format == .json && files.count > 1 {
          documents.append(rendered.trimmingCharacters(in: .whitespacesAndNewlines))
        } else {
          if files.count > 1 && format == .txt { print("== \(path) ==") }
          print(rendered, terminator: "")
          fflush(nil)
        }
      } catch {
        failures += 1
        progress.clear()
        let message = FailureText.describe(error)
        // Every message names the file it is about, so a failure among many can be found.
        CommandRunner.report(message.contains(url.path) || message.contains(path) ? message : "\(path): \(message)")
      }
    }
    if !documents.isEmpty { print("[\n" + documents.joined(separator: ",\n") + "\n]") }
    if failures > 0 {
      throw CommandFailure(message: "\(failures) of \(files.count) files failed", alreadyReported: files.count == 1)
    }
  }
}
