/// A failure with the exit status it ends the program with; a command may have explained it
/// already (for example, which of several files failed).
struct CommandFailure: Error {
  /// The one-line message, unless already reported.
  var message: String
  /// Whether the command printed its own messages, so the runner prints nothing more.
  var alreadyReported = false
  /// The exit status.
  var status: ExitStatus = .failure
  /// Whether this is a notice ("nothing matched", "kept") rather than an error: the message is
  /// printed as it is, without "error:".
  var isNotice = false

  /// Nothing matched: exit status 1 with `message` on standard error (nothing on standard output,
  /// as grep does).
  static func noMatch(_ message: String) -> CommandFailure { CommandFailure(message: message, isNotice: true) }
}
