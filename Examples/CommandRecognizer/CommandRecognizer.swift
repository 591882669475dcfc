import AudioIO
import Foundation
import SpeechRecognition

/// Seed 003 in a terminal: a recognizer tuned by a custom language model to hear a few commands
/// ("Set background to blue", "I am sea"), which change the terminal's background colour.
///
///     swift run CommandRecognizer                       # from the microphone; Ctrl-C stops
///     swift run CommandRecognizer --input command.wav   # a file, played in real time
///     swift run CommandRecognizer --no-custom-model     # plain Whisper, to hear the difference
@main
struct CommandRecognizer {
  static let help = """
    OVERVIEW: Hears spoken commands (seed 003) and changes the terminal's background colour.

    USAGE: CommandRecognizer [--input <file>] [--model <model>] [--no-custom-model]

    OPTIONS:
      -i, --input <file>      Play this audio file in real time instead of the microphone.
      -m, --model <model>     Speech model: \(SpeechModel.all.map { $0 == .default ? "\($0.name) (default)" : $0.name }.joined(separator: ", ")).
      --no-custom-model       Plain Whisper, without the custom language model (to hear the difference).
      -h, --help              Show help information.

    COMMANDS (say them):
    \(ColorCommand.spoken.map { "  \($0.phrase.padding(toLength: 26, withPad: " ", startingAt: 0))\($0.effect)" }.joined(separator: "\n"))

    KEYS: Ctrl-C stops listening.

    EXIT STATUS:
      0  Success.
      1  The audio or the speech model failed (the message says why).
      2  Usage error.

    """

  static func main() async {
    var input: URL?
    var modelName = SpeechModel.default.name
    var useCustomModel = true
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
      switch argument {
      case "--help", "-h":
        print(help, terminator: "")
        return
      case "--input", "-i":
        guard let path = arguments.popFirst() else { usageError("--input needs a file") }
        input = URL(fileURLWithPath: path)
      case "--model", "-m":
        guard let name = arguments.popFirst() else { usageError("--model needs a model name") }
        guard (try? SpeechModel.named(name)) != nil else {
          usageError(
            "no speech model is called '\(name)'; choose one of: \(SpeechModel.all.map(\.name).joined(separator: ", "))"
          )
        }
        modelName = name
      case "--no-custom-model":
        useCustomModel = false
      default:
        usageError("unexpected '\(argument)'")
      }
    }
    let screen = CommandScreen()
    do {
      let model = try SpeechModel.named(modelName)
      let transcriber = try await makeTranscriber(model: model, customModel: useCustomModel)
      // With the model, plain Whisper listens too, to tell a command from something else forced into one.
      let plain = useCustomModel ? SpeechTranscriber(model: model, locale: Locale(identifier: "en_US")) : nil
      screen.say(useCustomModel ? "Listening for commands (custom language model on)." : "Listening (plain Whisper).")
      screen.showCommands(ColorCommand.spoken)
      let analyzer = SpeechAnalyzer(modules: [transcriber] + (plain.map { [$0] } ?? []))
      let source = CommandAudioSource(inputFile: input)
      let audio = try source.start()
      let (inputs, feed) = AsyncStream.makeStream(of: AnalyzerInput.self)
      try await analyzer.start(inputSequence: inputs)
      let feeding = Task {
        defer { feed.finish() }
        for try await buffer in audio { feed.yield(AnalyzerInput(buffer: buffer)) }
        feed.finish()
        // The input is over: decode what is pending and end the result streams.
        try await analyzer.finalizeAndFinishThroughEndOfInput()
      }
      installInterruptHandler { source.stop() }
      var plainResults = plain?.results.makeAsyncIterator()
      for try await result in transcriber.results where result.isFinal {
        let text = String(result.text.characters).trimmingCharacters(in: .whitespacesAndNewlines)
        var heard: String?
        while let next = try await plainResults?.next() {
          guard next.isFinal else { continue }
          if next.range.end.seconds >= result.range.end.seconds - 0.3 {
            heard = String(next.text.characters).trimmingCharacters(in: .whitespacesAndNewlines)
            break
          }
        }
        guard !text.isEmpty else { continue }
        if let heard, await !CommandCheck.soundsAlike(text, heard) {
          screen.show(heard.isEmpty ? text : heard, command: nil)
          continue
        }
        screen.show(text, command: ColorCommand(text))
      }
      try await feeding.value
      screen.finish()
    } catch {
      screen.fail((error as? LocalizedError)?.errorDescription ?? "\(error)")
      exit(1)
    }
  }

  /// A transcriber that, with `customModel`, may only write the seed's commands.
  private static func makeTranscriber(model: SpeechModel, customModel: Bool) async throws -> SpeechTranscriber {
    let locale = Locale(identifier: "en_US")
    guard customModel else { return SpeechTranscriber(model: model, locale: locale) }
    let configuration = try await CommandModel.prepare()
    return try SpeechTranscriber(model: model, locale: locale, customizedLanguage: configuration)
  }

  private static func usageError(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("CommandRecognizer: error: \(problem) (see `CommandRecognizer --help`)\n".utf8))
    exit(2)
  }
}
