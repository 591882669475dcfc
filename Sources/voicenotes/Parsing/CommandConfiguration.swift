/// What a command accepts and how its help reads, declared next to the command.
struct CommandConfiguration: Sendable {
  /// The word that selects the command (`transcribe`), or the program name for the root.
  var name: String
  /// One line on what the command does.
  var abstract: String
  /// More help, printed after the usage line.
  var discussion: String = ""
  /// Positional arguments, in order.
  var arguments: [ArgumentSpec] = []
  /// Options and flags.
  var options: [OptionSpec] = []
  /// Commands reached through this one (`models install`).
  var subcommands: [any ParsableCommand.Type] = []
}

/// A positional argument.
struct ArgumentSpec: Sendable {
  /// The name shown in help, without angle brackets.
  var name: String
  /// What the argument is.
  var help: String
  /// Whether it may be given more than once.
  var isRepeating = false
  /// Whether it may be left out.
  var isOptional = false
}

/// An option that takes a value (`--model base`) or a flag (`--timestamps`).
struct OptionSpec: Sendable {
  /// The long name, without dashes.
  var name: String
  /// A one-letter alias, if any.
  var short: Character? = nil
  /// The value placeholder shown in help; nil makes this a flag.
  var valueName: String? = nil
  /// What the option does.
  var help: String
  /// The values allowed, when the set is closed.
  var allowedValues: [String]? = nil

  /// A flag: present or absent.
  static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, help: help)
  }

  /// An option with a value.
  static func option(_ name: String, short: Character? = nil, value: String, help: String, allowed: [String]? = nil)
    -> OptionSpec
  {
    OptionSpec(name: name, short: short, valueName: value, help: help, allowedValues: allowed)
  }
}
