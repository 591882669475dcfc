import CommandLineParsing

/// Renders a command's help from its configuration, in the layout of swift-argument-parser, with
/// the examples, exit statuses and (for the program itself) environment that man pages give.
enum HelpFormatter {
  /// The environment variables the program reads, for the program's own help.
  static let environment: [(name: String, meaning: String)] = [
    ("VOICENOTES_LIBRARY", "The notes library when --library is not given."),
    ("XDG_DATA_HOME", "Without either, the library is $XDG_DATA_HOME/voicenotes (or ~/.local/share/voicenotes)."),
    (
      "VOICENOTES_MODELS",
      "Where models are installed (default: .deps/models in a checkout, else ~/.local/share/voicenotes/models)."
    ),
    ("VOICENOTES_CACHE", "Where downloads are cached (default: ~/.cache/voicenotes)."),
    ("VOICENOTES_THREADS", "Threads for the engines (default: the machine's cores)."),
    (
      "VOICENOTES_LANGUAGE_MODEL",
      "A local language model to use instead of qwen-1.5b (qwen-0.5b is faster); off: analysis waits."
    ),
    (
      "VOICENOTES_LANGUAGE_MODEL_SERVER",
      "An OpenAI-compatible server that analyses (…_MODEL, …_API_KEY too); see `voicenotes config`."
    ),
    (
      "VOICENOTES_TRANSCRIPTION_SERVER",
      "An OpenAI-compatible server that transcribes files (…_MODEL, …_API_KEY too)."
    ),
    ("NO_COLOR", "When set to anything, no colour (as --no-color)."),
  ]

  static func help(for configuration: CommandConfiguration, commandPath: String) -> String {
    var lines = ["OVERVIEW: \(configuration.abstract)", ""]
    if !configuration.discussion.isEmpty { lines += [configuration.discussion, ""] }
    lines.append("USAGE: \(usage(for: configuration, commandPath: commandPath))")
    if !configuration.arguments.isEmpty {
      lines += ["", "ARGUMENTS:"]
      for argument in configuration.arguments {
        lines.append(row("<\(argument.name)>\(argument.isRepeating ? " ..." : "")", argument.help))
      }
    }
    lines += ["", "OPTIONS:"]
    for option in configuration.options {
      var label = option.short.map { "-\($0), " } ?? ""
      label += "--\(option.name)"
      if let value = option.valueName { label += " <\(value)>" }
      lines.append(row(label, option.help))
    }
    lines.append(row("--no-color", "Print no colour (also when NO_COLOR is set)."))
    lines.append(row("-h, --help", "Show help information."))
    if !configuration.subcommands.isEmpty {
      lines += ["", "SUBCOMMANDS:"]
      for subcommand in configuration.subcommands {
        lines.append(row(subcommand.configuration.name, subcommand.configuration.abstract))
      }
      lines += ["", "  See '\(commandPath) help <subcommand>' for detailed help."]
    }
    if !configuration.examples.isEmpty {
      lines += ["", "EXAMPLES:"]
      for example in configuration.examples {
        lines += ["  \(example.command)", "      \(example.explanation)"]
      }
    }
    lines += ["", "EXIT STATUS:"]
    for status in ExitStatus.allCases { lines.append("  \(status.rawValue)  \(status.meaning)") }
    if commandPath == configuration.name {
      lines += ["", "ENVIRONMENT:"]
      for variable in environment { lines.append(row(variable.name, variable.meaning)) }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func usage(for configuration: CommandConfiguration, commandPath: String) -> String {
    var parts = [commandPath]
    if !configuration.subcommands.isEmpty && configuration.arguments.isEmpty { parts.append("<subcommand>") }
    for argument in configuration.arguments {
      var part = "<\(argument.name)>"
      if argument.isRepeating { part += " ..." }
      parts.append(argument.isOptional ? "[\(part)]" : part)
    }
    for option in configuration.options {
      parts.append(option.valueName.map { "[--\(option.name) <\($0)>]" } ?? "[--\(option.name)]")
    }
    return parts.joined(separator: " ")
  }

  private static func row(_ label: String, _ help: String) -> String {
    let padded = "  " + label
    return padded.count < 26
      ? padded + String(repeating: " ", count: 26 - padded.count) + help
      : padded + "\n" + String(repeating: " ", count: 26) + help
  }
}
