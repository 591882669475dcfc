import Foundation

/// Finds the command the arguments select, parses its input, runs it and returns an exit status:
/// 0 on success, 1 on any error (printed on one line to standard error).
enum CommandRunner {
  static func run(root: any ParsableCommand.Type, arguments: [String]) async -> Int32 {
    var command = root
    var path = root.configuration.name
    var remaining = arguments[...]
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
    if remaining.contains("--help") || remaining.contains("-h") {
      print(HelpFormatter.help(for: command.configuration, commandPath: path), terminator: "")
      return 0
    }
    do {
      let input = try ParsedInput.parse(Array(remaining), for: command.configuration, commandPath: path)
      try await command.init(input).run()
      return 0
    } catch let error as UsageError {
      report(error.description)
    } catch let error as CommandFailure {
      if !error.alreadyReported { report(error.message) }
    } catch {
      report((error as? LocalizedError)?.errorDescription ?? String(describing: error))
    }
    return 1
  }

  /// Prints `message` as the program's one-line error.
  static func report(_ message: String) {
    fflush(nil)
    ProgressReporter.write("voicenotes: error: \(message)\n")
  }
}

/// A failure a command has already explained (for example, some of several files failed).
struct CommandFailure: Error {
  var message: String
  var alreadyReported = false
}
