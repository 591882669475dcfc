/// Input the command line cannot accept: an unknown option, a missing argument, a bad value.
struct UsageError: Error, CustomStringConvertible {
  /// What is wrong and what to do, on one line.
  var message: String
  /// The command whose help explains the fix.
  var commandPath: String

  var description: String { "\(message) (see `\(commandPath) --help`)" }
}
