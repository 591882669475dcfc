/// A positional argument.
public struct ArgumentSpec: Sendable {
  /// The name shown in help, without angle brackets.
  public var name: String
  /// What the argument is.
  public var help: String
  /// Whether it may be given more than once.
  public var isRepeating = false
  /// Whether it may be left out.
  public var isOptional = false

  /// An argument `<name>` described by `help`.
  public init(name: String, help: String, isRepeating: Bool = false, isOptional: Bool = false) {
    self.name = name
    self.help = help
    self.isRepeating = isRepeating
    self.isOptional = isOptional
  }
}
