/// Renders a command's help from its configuration, in the layout of swift-argument-parser.
enum HelpFormatter {
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
    lines.append(row("-h, --help", "Show help information."))
    if !configuration.subcommands.isEmpty {
      lines += ["", "SUBCOMMANDS:"]
      for subcommand in configuration.subcommands {
        lines.append(row(subcommand.configuration.name, subcommand.configuration.abstract))
      }
      lines += ["", "  See '\(commandPath) help <subcommand>' for detailed help."]
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
