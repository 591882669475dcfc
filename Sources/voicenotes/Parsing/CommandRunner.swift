import CommandLineParsing
import Foundation
import VoiceNotes

/// Finds the command the arguments select, parses its input, runs it and returns an
/// ``ExitStatus``: errors are printed on one line to standard error.
enum CommandRunner {
  static func run(root: any ParsableCommand.Type, arguments: [String]) async -> Int32 {
    var command = root
    var path = root.configuration.name
    var remaining = Array(Self.takingGlobalOptions(from: arguments))[...]
    if remaining.first == "help" {
      remaining = remaining.dropFirst()
      remaining.append("--help")
    }
    while let word = remaining.first,
      let subcommand = command.configuration.subcommands.first(where: { $0.configuration.name == word })
    {
      command = subcommand
      path += " \(word)"
      remaining = remaining.dropFirst()
    }
    let options = remaining.prefix { $0 != "--" }
    if options.contains("--help") || options.contains("-h") {
      print(HelpFormatter.help(for: command.configuration, commandPath: path), terminator: "")
      return ExitStatus.success.rawValue
    }
    do {
      let input = try ParsedInput.parse(Array(remaining), for: command.configuration, commandPath: path)
      try await command.init(input).run()
      return ExitStatus.success.rawValue
    } catch let error as UsageError {
      report(error.description)
      return ExitStatus.usage.rawValue
    } catch let error as CommandFailure {
      if error.isNotice {
        ProgressReporter.write(error.message + "\n")
      } else if !error.alreadyReported {
        report(error.message)
      }
      return error.status.rawValue
    } catch {
      report(FailureText.describe(error))
      return ExitStatus.failure.rawValue
    }
  }

  /// The arguments without the options every command takes (`--no-color`), which take effect here.
  private static func takingGlobalOptions(from arguments: [String]) -> [String] {
    let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
    if arguments[..<end].contains("--no-color") { TerminalStyle.disable() }
    return arguments[..<end].filter { $0 != "--no-color" } + arguments[end...]
  }

  /// Prints `message` as the program's one-line error.
  static func report(_ message: String) {
    fflush(nil)
    ProgressReporter.write("voicenotes: error: \(message)\n")
  }
}
