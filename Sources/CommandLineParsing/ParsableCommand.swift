/// A command of the `voicenotes` program: declared configuration, validated input, then `run`.
///
/// The shape follows swift-argument-parser: the configuration is a static value, all input checks
/// happen in `init` (so `run` starts with valid input), and errors map to one exit code.
public protocol ParsableCommand: Sendable {
  /// The command's name, arguments, options and help.
  static var configuration: CommandConfiguration { get }
  /// Builds the command from parsed input, throwing ``UsageError`` for invalid input.
  init(_ input: ParsedInput) throws(UsageError)
  /// Does the work. Thrown errors are printed on one line and exit with status 1.
  func run() async throws
}
