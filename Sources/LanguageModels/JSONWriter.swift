/// Writes ``GeneratedContent`` as JSON text, keeping the order of structure properties.
///
/// `JSONSerialization` sorts or scrambles object keys; the model's output, the schemas sent to the
/// grammar and the tests all need the order the properties were declared in.
struct JSONWriter {
  /// Whether to write one property per line, indented by two spaces; arrays of plain values stay on
  /// one line.
  var isPrettyPrinted: Bool

  private var output = ""

  /// Creates a writer.
  ///
  /// - Parameter isPrettyPrinted: Whether to indent the output.
  init(isPrettyPrinted: Bool) {
    self.isPrettyPrinted = isPrettyPrinted
  }

  /// Writes content as JSON text.
  ///
  /// - Parameters:
  ///   - content: The content to write.
  ///   - isPrettyPrinted: Whether to indent the output.
  /// - Returns: The JSON text.
  static func string(for content: GeneratedContent, isPrettyPrinted: Bool = false) -> String {
    var writer = JSONWriter(isPrettyPrinted: isPrettyPrinted)
    writer.write(content, depth: 0)
    return writer.output
  }

  private mutating func write(_ content: GeneratedContent, depth: Int) {
    switch content.kind {
    case .null:
      output += "null"
    case .bool(let value):
      output += value ? "true" : "false"
    case .number(let value):
      output += Self.numberText(value)
    case .string(let value):
      output += Self.quoted(value)
    case .array(let elements):
      writeArray(elements, depth: depth)
    case .structure(let properties, let keys):
      writeStructure(properties, keys: keys, depth: depth)
    }
  }

  private mutating func writeArray(_ elements: [GeneratedContent], depth: Int) {
    let inline = !isPrettyPrinted || elements.allSatisfy(\.isScalar)
    output += "["
    for (offset, element) in elements.enumerated() {
      if offset > 0 {
        output += inline && isPrettyPrinted ? ", " : ","
      }
      if !inline {
        newline(depth + 1)
      }
      write(element, depth: depth + 1)
    }
    if !inline, !elements.isEmpty {
      newline(depth)
    }
    output += "]"
  }

  private mutating func writeStructure(_ properties: [String: GeneratedContent], keys: [String], depth: Int) {
    output += "{"
    var first = true
    for key in keys {
      guard let value = properties[key] else { continue }
      if !first {
        output += ","
      }
      first = false
      if isPrettyPrinted {
        newline(depth + 1)
      }
      output += Self.quoted(key)
      output += isPrettyPrinted ? ": " : ":"
      write(value, depth: depth + 1)
    }
    if isPrettyPrinted, !first {
      newline(depth)
    }
    output += "}"
  }

  private mutating func newline(_ depth: Int) {
    output += "\n" + String(repeating: "  ", count: depth)
  }

  /// A number as JSON: integers without a fraction, non-finite values as `null`.
  static func numberText(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 1e15 {
      return String(Int64(value))
    }
    return "\(value)"
  }

  /// A string as a quoted JSON string.
  static func quoted(_ value: String) -> String {
    var text = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case "\u{08}": text += "\\b"
      case "\u{0C}": text += "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default:
        text.unicodeScalars.append(scalar)
      }
    }
    return text + "\""
  }
}

extension GeneratedContent {
  /// Whether the content is a plain value rather than an array or a structure.
  fileprivate var isScalar: Bool {
    switch kind {
    case .array, .structure: false
    default: true
    }
  }
}
