/// What a command accepts and how its help reads, declared next to the command.
public struct CommandConfiguration: Sendable {
  /// The word that selects the command (`transcribe`), or the program name for the root.
  public var name: String
  /// One line on what the command does.
  public var abstract: String
  /// More help, printed after the usage line.
  public var discussion: String = ""
  /// Positional arguments, in order.
  public var arguments: [ArgumentSpec] = []
  /// Options and flags.
  public var options: [OptionSpec] = []
  /// Commands reached through this one (`models install`).
  public var subcommands: [any ParsableCommand.Type] = []
  /// Command lines to copy, each with what it does; help prints them under EXAMPLES.
  public var examples: [Example] = []

  /// A configuration; `options` are the command's declared flags and options.
  public init(
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
