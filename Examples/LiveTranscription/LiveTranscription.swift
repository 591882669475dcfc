import Foundation
import SpeechRecognition

/// Seed 002's live speech-to-text in a terminal: `swift run LiveTranscription [--input FILE]
/// [--model base|tiny.en]`.
///
/// Space starts and stops recording, `c` clears, `q` quits. Final text is shown plainly with the
/// volatile text dimmed after it; errors are red. `--input FILE` plays a file in real time
/// instead of the microphone. When standard input or output is not a terminal, recording starts
/// at once, final text is printed line by line, and the program ends with the audio (the end of
/// the file, or Ctrl-C).
@main
struct LiveTranscription {
  static let usage = "USAGE: LiveTranscription [--input <file>] [--model <model>]"

  static let help = """
    OVERVIEW: Live speech to text in the terminal (seed 002's app), on this machine.

    \(usage)

    OPTIONS:
      -i, --input <file>      Play this audio file in real time instead of the microphone.
      -m, --model <model>     Speech model: \(SpeechModel.all.map { $0 == .default ? "\($0.name) (default)" : $0.name }.joined(separator: ", ")).
      -h, --help              Show help information.

    KEYS (in a terminal):
      space                   Start or stop recording.
      c                       Clear the transcript.
      q                       Quit.

    When standard input or output is not a terminal, recording starts at once, final text is
    printed line by line, and the program ends with the audio (the end of the file, or Ctrl-C).
    NO_COLOR turns the styles off.

    EXAMPLES:
      swift run LiveTranscription
      swift run LiveTranscription --input memo.wav --model tiny.en > memo.txt

    EXIT STATUS:
      0  Success.
      1  The audio or the speech model failed (the message says why).
      2  Usage error.

    """

  static func main() async {
    var inputFile: URL?
    var model = SpeechModel.default
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
      switch argument {
      case "--help", "-h":
        print(help, terminator: "")
        exit(0)
      case "--input", "-i":
        guard let path = arguments.popFirst() else { fail("--input needs a file") }
        inputFile = URL(fileURLWithPath: path)
      case "--model", "-m":
        guard let name = arguments.popFirst() else { fail("--model needs a model name") }
        guard let named = try? SpeechModel.named(name) else {
          fail(
            "no speech model is called '\(name)'; choose one of: \(SpeechModel.all.map(\.name).joined(separator: ", "))"
          )
        }
        model = named
      default:
        fail("unexpected '\(argument)'")
      }
    }

    let screen = TerminalScreen()
    let viewModel = SpeechToTextViewModel(
      audioManager: AudioManager(inputFile: inputFile), transcriptionManager: TranscriptionManager(model: model),
      screen: screen, sourceName: inputFile?.lastPathComponent ?? "microphone")

    guard screen.isInteractive else {
      await viewModel.startRecording()
      await viewModel.waitUntilStopped()
      exit(await viewModel.model.errorMessage == nil ? 0 : 1)
    }
    screen.enterRawMode()
    await viewModel.render()
    keys: for await key in screen.keys() {
      switch key {
      case UInt8(ascii: " "): await viewModel.toggleRecording()
      case UInt8(ascii: "c"): await viewModel.clearTranscript()
      case UInt8(ascii: "q"): break keys
      default: continue
      }
    }
    await viewModel.stopRecording()
    // Back on the shell's screen, the transcript stays there to copy.
    TerminalScreen.restore()
    let text = await viewModel.model.finalizedText.trimmingCharacters(in: .whitespacesAndNewlines)
    if !text.isEmpty { print(text) }
    exit(0)
  }

  static func fail(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("LiveTranscription: error: \(problem) (see `LiveTranscription --help`)\n".utf8))
    exit(2)
  }
}
