import AudioIO
import CommandLineParsing
import Foundation
import SpeechRecognition
import VoiceNotes

/// `voicenotes record`: record a note from the microphone (or play a file in real time through
/// the same path) with a live transcript, then transcribe and analyse it like an import.
struct RecordCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "record",
    abstract: "Record a note from the microphone with a live transcript, then transcribe and analyse it.",
    discussion: """
      The note is saved when recording starts and its audio is written to the library as it is
      captured: a crash loses at most about a second, and the next voicenotes command finishes the
      note. Stop with Enter or Ctrl-C (a second Ctrl-C aborts at once), or with --duration. The live
      transcript shows final text plainly and tentative text dimmed; the note's transcript is then
      made from the whole recording. When standard output is not a terminal, only final lines are
      printed there.
      """,
    options: [
      inputFile, device, listDevices, liveModel, duration, LibraryOption.noProcess, OutputOptions.quiet,
      LibraryOption.option,
    ],
    examples: [
      Example("voicenotes record", "Record from the default microphone until Enter or Ctrl-C."),
      Example("voicenotes record --duration 60 --device hw:1", "Record one minute from another input."),
      Example("voicenotes record --input memo.wav", "Play a file in real time through the same path (demos)."),
    ])

  static let inputFile = Option<String>(
    "input", short: "i", value: "file",
    help: "Play this audio file in real time instead of the microphone (demos, tests).")
  static let device = Option<String>(
    "device", short: "d", value: "name", help: "The input device (default: the system's default input).")
  static let listDevices = Flag("list-devices", help: "List the input devices and exit.")
  static let liveModel = ModelOptions.speech("live-model", purpose: "Speech model for the live transcript")
  static let duration = ModelOptions.seconds("duration", short: "t", help: "Stop after this many seconds.")

  let inputPath: String?
  let device: String?
  let listDevices: Bool
  let liveModel: SpeechModel
  let duration: Double?
  let process: Bool
  let quiet: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    inputPath = try input.value(Self.inputFile)
    device = try input.value(Self.device)
    if inputPath != nil && device != nil { throw input.error("give --input or --device, not both") }
    listDevices = input.isSet(Self.listDevices)
    liveModel = try input.value(Self.liveModel) ?? .default
    duration = try input.value(Self.duration)
    process = !input.isSet(LibraryOption.noProcess)
    quiet = input.isSet(OutputOptions.quiet)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    if listDevices {
      Self.printDevices()
      return
    }
    let progress = ProgressReporter(quiet: quiet)
    // The source first: a bad file or device fails here, before the library is touched.
    let source = try RecordInput.open(file: inputPath, device: device)
    var configuration = try LibraryOption.configuration(library)
    configuration.liveModel = liveModel
    let app = try await Library.open(configuration)
    let view = LiveTranscriptView()
    let wantsLive = await installLiveModel(progress: progress)

    // The note and the live transcript first, so that capture starts with everything ready.
    let session = try await app.startRecording(
      sourceName: source.sourceName, liveTranscript: wantsLive, onLiveResult: { view.show($0) },
      onLiveFailure: { reason in view.message("live transcript stopped: \(reason); recording goes on") })
    let audio: AsyncThrowingStream<AudioBuffer, any Error>
    do {
      audio = try source.start(forDuration: duration)
    } catch {
      // Nothing was captured: the note goes again.
      _ = try? await app.finishRecording(session.id)
      _ = try? await app.delete(session.id)
      throw error
    }
    let id = String(session.id.prefix(8))
    let stops = StopRequests(stop: { source.stop() }, abort: { Self.abort(noteID: id, view: view) })
    stops.listen()
    if !quiet { view.message("recording note \(id) from \(source.sourceName); press Enter or Ctrl-C to stop") }

    var failure: (any Error)?
    do {
      for try await buffer in audio { try await session.append(buffer) }
    } catch let error as MicrophoneError {
      failure = RecordError.microphone(error)
    } catch {
      failure = error
      source.stop()
    }
    stops.recordingEnded()
    let note: VoiceNote
    do {
      note = try await app.finishRecording(session.id)
    } catch {
      view.finish()
      stops.restoreTerminal()
      throw error
    }
    view.finish()
    stops.restoreTerminal()

    guard note.duration > 0 else {
      _ = try? await app.delete(note.id)
      throw failure ?? RecordError.nothingRecorded
    }
    progress.finish(String(format: "saved note %@: %.1f s recorded", id, note.duration))
    if let failure { CommandRunner.report(FailureText.describe(failure)) }
    if process, try await LibraryOption.process([note], in: app, progress: progress) > 0 {
      throw CommandFailure(message: "note \(id) failed", alreadyReported: true)
    }
    if failure != nil { throw CommandFailure(message: "recording stopped early", alreadyReported: true) }
  }

  /// Installs the live model when missing, with progress; without it the recording goes on
  /// without a live transcript.
  private func installLiveModel(progress: ProgressReporter) async -> Bool {
    do {
      try await ModelsInstallCommand.ensureInstalled(liveModel, progress: progress)
      return true
    } catch {
      progress.clear()
      let reason = FailureText.describe(error)
      ProgressReporter.write("voicenotes: no live transcript (\(reason)); recording without it\n")
      return false
    }
  }

  /// Ends the process at once (a second Ctrl-C): the note keeps the audio written so far.
  private static func abort(noteID: String, view: LiveTranscriptView) {
    view.finish()
    ProgressReporter.write(
      "voicenotes: interrupted; note \(noteID) keeps the audio recorded so far, and the next voicenotes "
        + "command finishes it\n")
    fflush(nil)
    _exit(130)
  }

  private static func printDevices() {
    let devices = MicrophoneCapture.inputDevices()
    guard !devices.isEmpty else {
      print("No input devices found. Connect a microphone, or record a file in real time with --input FILE.")
      return
    }
    let width = devices.map(\.name.count).max() ?? 0
    for device in devices {
      print(device.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + device.description)
    }
  }
}
