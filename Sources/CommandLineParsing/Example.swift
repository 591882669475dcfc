/// A command line shown in help, with what it does.
public struct Example: Sendable {
  /// The command line, as a person types it.
  public var command: String
  /// What it does, in a few words.
  public var explanation: String

  /// An example: `command`, explained by `explanation`.
  public init(_ command: String, _ explanation: String) {
    self.command = command
    self.explanation = explanation
  }
}
