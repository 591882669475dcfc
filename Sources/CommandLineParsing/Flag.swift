/// A flag (`--json`) declared once: the same value goes into a command's configuration and is
/// what the command reads back, so a misspelt name cannot silently read as "absent".
public struct Flag: Sendable {
  /// The declaration shown in help and matched by the parser.
  public let spec: OptionSpec

  /// A flag called `--name` (and `-short`), described by `help`.
  public init(_ name: String, short: Character? = nil, help: String) {
    spec = OptionSpec(name: name, short: short, valueName: nil, help: help)
  }
}
