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
  static let usage = "usage: LiveTranscription [--input FILE] [--model base|tiny.en]"

  static func main() async {
    var inputFile: URL?
    var model = SpeechModel.default
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
      switch (argument, arguments.popFirst()) {
      case ("--input", let path?):
        inputFile = URL(fileURLWithPath: path)
      case ("--model", let name?):
        guard let named = try? SpeechModel.named(name) else { fail("no speech model is called '\(name)'") }
        model = named
      case ("--help", _), ("-h", _):
        print(usage)
        exit(0)
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
    exit(0)
  }

  static func fail(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("LiveTranscription: \(problem)\n\(usage)\n".utf8))
    exit(2)
  }
}
