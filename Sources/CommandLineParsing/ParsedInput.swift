/// The command line after parsing: flags seen, option values and positional arguments.
///
/// Commands read their input through the declarations they list in their configuration
/// (``Flag`` and ``Option``), never by a name spelled out again.
public struct ParsedInput: Sendable {
  /// The words that led to this command, for messages (`voicenotes models install`).
  public var commandPath: String
  /// Positional arguments, in order.
  public var positionals: [String] = []
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []
  private var declared: Set<String> = []

  /// Input with nothing parsed yet, for the command reached by `commandPath`.
  public init(commandPath: String) { self.commandPath = commandPath }

  /// Whether `flag` was given.
  public func isSet(_ flag: Flag) -> Bool {
    checkDeclared(flag.spec)
    return flags.contains(flag.spec.name)
  }

  /// The last value given for `option`, converted; nil when it was not given.
  public func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
    try allValues(option).last
  }

  /// Every value given for `option`, in order, converted.
  public func allValues<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
    checkDeclared(option.spec)
    var converted: [Value] = []
    for text in values[option.spec.name] ?? [] {
      do {
        converted.append(try option.convert(text))
      } catch {
        throw self.error("'\(text)' is not a valid value for '--\(option.spec.name)'; \(error.message)")
      }
    }
    return converted
  }

  /// A usage error about this command.
  public func error(_ message: String) -> UsageError { UsageError(message: message, commandPath: commandPath) }

  private func checkDeclared(_ spec: OptionSpec) {
    precondition(declared.contains(spec.name), "\(commandPath) reads --\(spec.name) without declaring it")
  }

  /// Parses `arguments` against `configuration`: long options (`--name value`, `--name=value`),
  /// one-letter aliases, flags, `--` before positionals only; throws ``UsageError`` for input the
  /// configuration does not accept.
  public static func parse(_ arguments: [String], for configuration: CommandConfiguration, commandPath: String)
    throws(UsageError) -> ParsedInput
  {
    var input = ParsedInput(commandPath: commandPath)
    input.declared = Set(configuration.options.map(\.name))
    var index = 0
    var onlyPositionals = false
    func spec(named name: String) throws(UsageError) -> OptionSpec {
      if let spec = configuration.options.first(where: { $0.name == name }) { return spec }
      throw input.error("unknown option '--\(name)'")
    }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
        input.positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      var name: String
      var inlineValue: String?
      if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        if let equals = body.firstIndex(of: "=") {
          name = String(body[..<equals])
          inlineValue = String(body[body.index(after: equals)...])
        } else {
          name = String(body)
        }
      } else {
        let letter = argument.dropFirst().first!
        guard argument.count == 2, let match = configuration.options.first(where: { $0.short == letter }) else {
          throw input.error("unknown option '\(argument)'")
        }
        name = match.name
      }
      let option = try spec(named: name)
      guard option.valueName != nil else {
        if inlineValue != nil { throw input.error("'--\(name)' takes no value") }
        input.flags.insert(name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else if index < arguments.count {
        value = arguments[index]
        index += 1
      } else {
        throw input.error("'--\(name)' needs a value <\(option.valueName!)>")
      }
      if let allowed = option.allowedValues, !allowed.contains(value) {
        throw input.error(
          "'\(value)' is not a valid value for '--\(name)'; use one of: \(allowed.joined(separator: ", "))")
      }
      input.values[name, default: []].append(value)
    }
    try input.checkPositionals(against: configuration.arguments)
    return input
  }

  private func checkPositionals(against specs: [ArgumentSpec]) throws(UsageError) {
    let required = specs.filter { !$0.isOptional }.count
    if positionals.count < required {
      let missing = specs.filter { !$0.isOptional }[positionals.count]
      throw error("missing <\(missing.name)>")
    }
    if !specs.contains(where: \.isRepeating), positionals.count > specs.count {
      throw error("unexpected argument '\(positionals[specs.count])'")
    }
  }
}
