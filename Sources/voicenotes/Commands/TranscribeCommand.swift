import AudioIO
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
      .option(
        "model", short: "m", value: "model",
        help: "Speech model: base (default, multilingual) or tiny.en (fast, English).",
        allowed: SpeechModel.all.map(\.name)),
      .option(
        "language", short: "l", value: "language", help: "Spoken language: auto (default) or a code such as en, de, fr."
      ),
      .option(
        "format", short: "f", value: "format", help: "Output: text (default), json, srt or vtt.",
        allowed: TranscriptFormat.allCases.map(\.rawValue)),
      .flag("timestamps", help: "Start each text line with its time range."),
      .option("output-dir", short: "o", value: "folder", help: "Write <name>.<format> files here instead of printing."),
      .flag("quiet", short: "q", help: "Show no progress."),
    ])

  let files: [String]
  let model: SpeechModel
  let locale: Locale?
  let format: TranscriptFormat
  let timestamps: Bool
  let outputDirectory: URL?
  let quiet: Bool

  init(_ input: ParsedInput) throws(UsageError) {
    files = input.positionals
    do {
      model = try SpeechModel.named(input.value("model") ?? SpeechModel.default.name)
    } catch {
      throw input.error(error.localizedDescription)
    }
    let language = input.value("language") ?? "auto"
    if language == "auto" {
      locale = model.isMultilingual ? nil : Locale(identifier: "en")
    } else {
      guard let supported = SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: language), model: model)
      else {
        throw input.error("the '\(model.name)' model cannot transcribe language '\(language)'")
      }
      locale = supported
    }
    format = input.value("format").flatMap(TranscriptFormat.init(rawValue:)) ?? .text
    timestamps = input.flag("timestamps")
    outputDirectory = input.value("output-dir").map { URL(fileURLWithPath: $0, isDirectory: true) }
    quiet = input.flag("quiet")
  }

  func run() async throws {
    let progress = ProgressReporter(quiet: quiet)
    try await ModelsInstallCommand.ensureInstalled(model, progress: progress)
    if let outputDirectory {
      try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
    }
    let transcriber = FileTranscriber(model: model, locale: locale)
    let writer = format.writer(timestamps: timestamps)
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
            format: "%@: %.1f s of audio in %.1f s (%.0fx real time)", name, transcript.duration, seconds,
            transcript.duration / max(seconds, 0.001)))
        let rendered = writer.render(transcript)
        if let outputDirectory {
          let destination = outputDirectory.appendingPathComponent(
            url.deletingPathExtension().lastPathComponent + "." + format.fileExtension)
          try Data(rendered.utf8).write(to: destination, options: .atomic)
        } else if format == .json && files.count > 1 {
          documents.append(rendered.trimmingCharacters(in: .whitespacesAndNewlines))
        } else {
          if files.count > 1 && format == .text { print("== \(path) ==") }
          print(rendered, terminator: "")
          fflush(nil)
        }
      } catch {
        failures += 1
        progress.clear()
        CommandRunner.report((error as? LocalizedError)?.errorDescription ?? String(describing: error))
      }
    }
    if !documents.isEmpty { print("[\n" + documents.joined(separator: ",\n") + "\n]") }
    if failures > 0 {
      throw CommandFailure(message: "\(failures) of \(files.count) files failed", alreadyReported: files.count == 1)
    }
  }
}

extension TranscriptFormat {
  /// The file extension for output files of this format.
  var fileExtension: String { self == .text ? "txt" : rawValue }
}
