extension GenerationSchema {
  /// A description of the guides in this schema that cannot be enforced while decoding, or `nil`
  /// when every guide can be.
  ///
  /// Reported: guides that do not fit their value; contradictory or empty guides (`anyOf` with no
  /// choices, a minimum above a maximum, a negative count, `constant` with `anyOf` or a pattern);
  /// more than one pattern on a value; patterns outside the subset llama.cpp enforces (see
  /// ``GenerationGuide/pattern(_:)-(String)``) or without source text. Bounds on floating-point
  /// numbers are left to the grammar layer, which spells them out itself.
  package func unsupportedGuideDescription() -> String? {
    var problems = issues
    check(root, at: name.isEmpty ? "the value" : name, into: &problems)
    for definition in definitions {
      check(definition.node, at: definition.name, into: &problems)
    }
    var unique: [String] = []
    for problem in problems where !unique.contains(problem) {
      unique.append(problem)
    }
    return unique.isEmpty ? nil : unique.joined(separator: "; ")
  }

  private func check(_ node: SchemaNode, at path: String, into problems: inout [String]) {
    switch node {
    case .string(let rules):
      if let choices = rules.choices, choices.isEmpty {
        problems.append("\(path): .anyOf has no choices")
      }
      if rules.constant != nil, rules.choices != nil || !rules.patterns.isEmpty || rules.opaquePatternCount > 0 {
        problems.append("\(path): .constant cannot be combined with .anyOf or a pattern")
      }
      if rules.choices != nil, !rules.patterns.isEmpty {
        problems.append("\(path): .anyOf cannot be combined with a pattern")
      }
      if rules.patterns.count + rules.opaquePatternCount > 1 {
        problems.append("\(path): only one pattern per value can be enforced; combine them into one")
      }
      if rules.opaquePatternCount > 0 {
        problems.append(
          "\(path): the Regex has no source text (built with RegexBuilder); use a regex literal or .pattern(\"...\")")
      }
      for pattern in rules.patterns {
        if let problem = SchemaPattern(pattern).problem {
          problems.append("\(path): the pattern \(pattern) cannot be enforced: \(problem)")
        }
      }
    case .integer(let bounds), .number(let bounds):
      if let minimum = bounds.minimum, let maximum = bounds.maximum, minimum > maximum {
        problems.append(
          "\(path): the minimum \(JSONWriter.numberText(minimum)) is above the maximum \(JSONWriter.numberText(maximum))"
        )
      }
    case .array(let shape):
      if let minimum = shape.minimumCount, minimum < 0 {
        problems.append("\(path): the element count \(minimum) is negative")
      }
      if let maximum = shape.maximumCount, maximum < 0 {
        problems.append("\(path): the element count \(maximum) is negative")
      }
      if let minimum = shape.minimumCount, let maximum = shape.maximumCount, minimum > maximum {
        problems.append("\(path): the minimum count \(minimum) is above the maximum count \(maximum)")
      }
      check(shape.items, at: path + "[]", into: &problems)
    case .object(let shape):
      for property in shape.properties {
        check(property.node, at: path + "." + property.name, into: &problems)
      }
    case .stringEnum(let shape):
      if shape.choices.isEmpty {
        problems.append("\(path): the enumeration has no cases")
      }
    case .union(let shape):
      if shape.choices.isEmpty {
        problems.append("\(path): the union has no choices")
      }
      for choice in shape.choices {
        check(choice, at: path, into: &problems)
      }
    case .boolean, .null, .any, .reference:
      break
    }
  }
}
