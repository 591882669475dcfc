/// An option with a value (`--format md`) declared once, with how its text becomes a typed value.
///
/// Like ``Flag``, the declaration that goes into a command's configuration is the one the command
/// reads, and a value that does not convert is a usage error naming the option.
public struct Option<Value: Sendable>: Sendable {
  /// The declaration shown in help and matched by the parser.
  public let spec: OptionSpec
  /// Turns the text given into a value; throws a message saying what is allowed.
  public let convert: @Sendable (String) throws(OptionValueError) -> Value

  /// An option `--name <value>` whose text converts with `convert`; `allowed` lists the values
  /// for help and completion when the set is closed.
  public init(
    _ name: String, short: Character? = nil, value: String, help: String, allowed: [String]? = nil,
    convert: @escaping @Sendable (String) throws(OptionValueError) -> Value
  ) {
    spec = OptionSpec(name: name, short: short, valueName: value, help: help, allowedValues: allowed)
    self.convert = convert
  }
}

/// Why an option's text is not a valid value: one line that says what is allowed.
public struct OptionValueError: Error {
  /// What is allowed, for example "use one of: md, json, txt".
  public var message: String

  /// A value error saying `message`.
  public init(message: String) { self.message = message }
}

extension Option where Value == String {
  /// An option whose value is any text.
  public init(_ name: String, short: Character? = nil, value: String, help: String) {
    self.init(name, short: short, value: value, help: help) { $0 }
  }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
  /// An option whose value is one of `cases` (all of `Value`'s by default), spelled as their raw
  /// values.
  public init(
    _ name: String, short: Character? = nil, value: String, help: String, cases: [Value] = Array(Value.allCases)
  ) {
    let names = cases.map(\.rawValue)
    self.init(name, short: short, value: value, help: help, allowed: names) {
      (text: String) throws(OptionValueError) -> Value in
      guard let match = Value(rawValue: text), names.contains(text) else {
        throw OptionValueError(message: "use one of: \(names.joined(separator: ", "))")
      }
      return match
    }
  }
}
