/// A command line shown in help, with what it does.
struct Example: Sendable {
  /// The command line, as a person types it.
  var command: String
  /// What it does, in a few words.
  var explanation: String

  /// An example: `command`, explained by `explanation`.
  init(_ command: String, _ explanation: String) {
    self.command = command
    self.explanation = explanation
  }
}
