/// An option that takes a value (`--model base`) or a flag (`--timestamps`).
public struct OptionSpec: Sendable {
  /// The long name, without dashes.
  public var name: String
  /// A one-letter alias, if any.
  public var short: Character? = nil
  /// The value placeholder shown in help; nil makes this a flag.
  public var valueName: String? = nil
  /// What the option does.
  public var help: String
  /// The values allowed, when the set is closed.
  public var allowedValues: [String]? = nil

  /// An option `--name` (a flag when `valueName` is nil) described by `help`.
  public init(
    name: String, short: Character? = nil, valueName: String? = nil, help: String, allowedValues: [String]? = nil
  ) {
    self.name = name
    self.short = short
    self.valueName = valueName
    self.help = help
    self.allowedValues = allowedValues
  }
}
