import Foundation

extension GenerationSchema {
  /// How `content` breaks this schema's guides, one line per problem; empty when it follows them.
  ///
  /// Checks what a server that only honours part of a JSON Schema may get wrong: types, required
  /// and unknown properties, `constant`, `anyOf` and enumeration cases, whole-string patterns,
  /// numeric bounds (integers must be whole), element counts, and unions (some choice must fit).
  package func violations(of content: GeneratedContent) -> [String] {
    var problems: [String] = []
    check(content, against: root, at: name.isEmpty ? "the value" : name, into: &problems, depth: 0)
    return problems
  }

  private func check(
    _ content: GeneratedContent, against node: SchemaNode, at path: String, into problems: inout [String], depth: Int
  ) {
    guard depth < 64 else { return problems.append("\(path): nested too deeply to check") }
    switch (node, content.kind) {
    case (.any, _), (.null, .null), (.boolean, .bool):
      break
    case (.reference(let name), _):
      guard let definition = definitions.first(where: { $0.name == name }) else {
        return problems.append("\(path): the schema names an unknown type \(name)")
      }
      check(content, against: definition.node, at: path, into: &problems, depth: depth + 1)
    case (.string(let rules), .string(let text)):
      if let constant = rules.constant, text != constant {
        problems.append("\(path): \(quoted(text)) is not the constant \(quoted(constant))")
      }
      if let choices = rules.choices, !choices.contains(text) {
        problems.append("\(path): \(quoted(text)) is not one of \(choices.map(quoted).joined(separator: ", "))")
      }
      for pattern in rules.patterns where !Self.matches(text, wholly: pattern) {
        problems.append("\(path): \(quoted(text)) does not match the pattern \(pattern)")
      }
    case (.integer(let bounds), .number(let value)):
      if value.rounded() != value { problems.append("\(path): \(value) is not a whole number") }
      checkBounds(value, bounds, at: path, into: &problems)
    case (.number(let bounds), .number(let value)):
      checkBounds(value, bounds, at: path, into: &problems)
    case (.array(let shape), .array(let elements)):
      if let minimum = shape.minimumCount, elements.count < minimum {
        problems.append("\(path): \(elements.count) elements, at least \(minimum) required")
      }
      if let maximum = shape.maximumCount, elements.count > maximum {
        problems.append("\(path): \(elements.count) elements, at most \(maximum) allowed")
      }
      for (index, element) in elements.enumerated() {
        check(element, against: shape.items, at: "\(path)[\(index)]", into: &problems, depth: depth + 1)
      }
    case (.object(let shape), .structure(let properties, let keys)):
      for property in shape.properties {
        guard let value = properties[property.name] else {
          if !property.isOptional { problems.append("\(path): the property \(property.name) is missing") }
          continue
        }
        if property.isOptional, value.kind == .null { continue }
        check(value, against: property.node, at: path + "." + property.name, into: &problems, depth: depth + 1)
      }
      let known = Set(shape.properties.map(\.name))
      for key in keys where !known.contains(key) {
        problems.append("\(path): the property \(key) is not in the schema")
      }
    case (.stringEnum(let shape), .string(let text)):
      if !shape.choices.contains(text) {
        problems.append("\(path): \(quoted(text)) is not a case of \(shape.name)")
      }
    case (.union(let shape), _):
      let fits = shape.choices.contains { choice in
        var found: [String] = []
        check(content, against: choice, at: path, into: &found, depth: depth + 1)
        return found.isEmpty
      }
      if !fits { problems.append("\(path): the value fits none of the choices of \(shape.name)") }
    default:
      problems.append("\(path): expected \(node.kindName), found \(content.kindName)")
    }
  }

  private func checkBounds(
    _ value: Double, _ bounds: SchemaNode.NumberBounds, at path: String, into problems: inout [String]
  ) {
    if let minimum = bounds.minimum, value < minimum {
      problems.append("\(path): \(JSONWriter.numberText(value)) is below the minimum \(JSONWriter.numberText(minimum))")
    }
    if let maximum = bounds.maximum, value > maximum {
      problems.append("\(path): \(JSONWriter.numberText(value)) is above the maximum \(JSONWriter.numberText(maximum))")
    }
  }

  private func quoted(_ text: String) -> String { GeneratedContent(kind: .string(text)).jsonString }

  /// Whether all of `text` matches `pattern` (the subset of regular expressions guides allow,
  /// which ICU reads the same way).
  static func matches(_ text: String, wholly pattern: String) -> Bool {
    guard let expression = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$") else { return false }
    let range = NSRange(text.startIndex..., in: text)
    return expression.firstMatch(in: text, range: range) != nil
  }
}
