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
  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.contains("--help") {
      print("usage: CommandRecognizer [--input FILE] [--model base|tiny.en] [--no-custom-model]")
      return
    }
    let input = value(of: "--input", in: arguments).map { URL(fileURLWithPath: $0) }
    let modelName = value(of: "--model", in: arguments) ?? "base"
    let useCustomModel = !arguments.contains("--no-custom-model")
    let screen = CommandScreen()
    do {
      let model = try SpeechModel.named(modelName)
      let transcriber = try await makeTranscriber(model: model, customModel: useCustomModel)
      // With the model, plain Whisper listens too, to tell a command from something else forced into one.
      let plain = useCustomModel ? SpeechTranscriber(model: model, locale: Locale(identifier: "en_US")) : nil
      screen.say(useCustomModel ? "Listening for commands (custom language model on)." : "Listening (plain Whisper).")
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

  private static func value(of option: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: option), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
  }
}

/// A message for a failure of this example.
struct RecognizerError: LocalizedError {
  let message: String
  init(_ message: String) { self.message = message }
  var errorDescription: String? { message }
}
