/// Input the command line cannot accept: an unknown option, a missing argument, a bad value.
public struct UsageError: Error, CustomStringConvertible {
  /// What is wrong and what to do, on one line.
  public var message: String
  /// The command whose help explains the fix.
  public var commandPath: String

  /// An error saying `message` about the command reached by `commandPath`.
  public init(message: String, commandPath: String) {
    self.message = message
    self.commandPath = commandPath
  }

  /// The message and where to look for help, as the program prints it.
  public var description: String { "\(message) (see `\(commandPath) --help`)" }
}
