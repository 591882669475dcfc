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
  /// Command lines to copy, each with what it does; help prints them under EXAMPLES.
  var examples: [Example] = []

  /// A configuration; `options` are the command's declared flags and options.
  init(
    name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [],
    options: [any OptionDeclaration] = [], subcommands: [any ParsableCommand.Type] = [], examples: [Example] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options.map(\.spec)
    self.subcommands = subcommands
    self.examples = examples
  }
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
}
