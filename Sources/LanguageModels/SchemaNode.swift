/// The shape of one value in a ``GenerationSchema``: what the grammar constrains and the prompt shows.
indirect enum SchemaNode: Sendable, Codable, Equatable {
  /// A string, with the guides on it.
  case string(StringRules)
  /// An integer, with optional inclusive bounds.
  case integer(NumberBounds)
  /// A floating-point or decimal number, with optional inclusive bounds.
  case number(NumberBounds)
  /// A Boolean.
  case boolean
  /// The JSON `null` value.
  case null
  /// Any JSON value.
  case any
  /// An array.
  case array(ArrayShape)
  /// A named structure with properties in declaration order.
  case object(ObjectShape)
  /// A named set of strings, such as an enumeration without payloads.
  case stringEnum(EnumShape)
  /// A named union of other schemas, such as an enumeration with payloads.
  case union(UnionShape)
  /// A reference to a named definition.
  case reference(String)

  /// The guides on a string.
  struct StringRules: Sendable, Codable, Equatable {
    /// The one value the string must have.
    var constant: String?
    /// The values the string must be one of.
    var choices: [String]?
    /// Regular expressions the whole string must match, as written.
    var patterns: [String] = []
    /// How many patterns came from a `Regex` whose source text is not available.
    var opaquePatternCount = 0
  }

  /// Inclusive bounds on a number.
  struct NumberBounds: Sendable, Codable, Equatable {
    /// The smallest allowed value.
    var minimum: Double?
    /// The largest allowed value.
    var maximum: Double?
  }

  /// An array's elements and how many there may be.
  struct ArrayShape: Sendable, Codable, Equatable {
    /// The schema of every element.
    var items: SchemaNode
    /// The fewest elements allowed.
    var minimumCount: Int?
    /// The most elements allowed.
    var maximumCount: Int?
  }

  /// A structure's name, description and properties.
  struct ObjectShape: Sendable, Codable, Equatable {
    /// The structure's name, used for its definition.
    var name: String
    /// What the structure is, for the model.
    var description: String?
    /// The properties, in declaration order.
    var properties: [PropertyShape]
  }

  /// One property of a structure.
  struct PropertyShape: Sendable, Codable, Equatable {
    /// The property's name, as the JSON key.
    var name: String
    /// What the property holds, for the model.
    var description: String?
    /// The property's value.
    var node: SchemaNode
    /// Whether the model may leave the property out.
    var isOptional: Bool
  }

  /// A named set of strings.
  struct EnumShape: Sendable, Codable, Equatable {
    /// The set's name, used for its definition.
    var name: String
    /// What the set is, for the model.
    var description: String?
    /// The allowed strings.
    var choices: [String]
  }

  /// A named union of schemas.
  struct UnionShape: Sendable, Codable, Equatable {
    /// The union's name, used for its definition.
    var name: String
    /// What the union is, for the model.
    var description: String?
    /// The schemas a value may match.
    var choices: [SchemaNode]
  }

  /// The name of the definition this node introduces, if it is a named type.
  var definitionName: String? {
    switch self {
    case .object(let shape): shape.name
    case .stringEnum(let shape): shape.name
    case .union(let shape): shape.name
    default: nil
    }
  }

  /// A short name of the node's kind, for messages.
  var kindName: String {
    switch self {
    case .string: "a string"
    case .integer: "an integer"
    case .number: "a number"
    case .boolean: "a Boolean"
    case .null: "null"
    case .any: "any value"
    case .array: "an array"
    case .object(let shape): shape.name
    case .stringEnum(let shape): shape.name
    case .union(let shape): shape.name
    case .reference(let name): name
    }
  }

  /// This node with a guide applied, or a description of why the guide does not apply.
  func applying(_ guide: GuideConstraint) -> Result<SchemaNode, GuideMismatch> {
    switch (self, guide) {
    case (.string(var rules), .constant(let value)):
      rules.constant = value
      return .success(.string(rules))
    case (.string(var rules), .anyOf(let values)):
      rules.choices = values
      return .success(.string(rules))
    case (.string(var rules), .pattern(let source)):
      if let source {
        rules.patterns.append(source)
      } else {
        rules.opaquePatternCount += 1
      }
      return .success(.string(rules))
    case (.integer(let bounds), _) where guide.isNumeric:
      return .success(.integer(bounds.applying(guide)))
    case (.number(let bounds), _) where guide.isNumeric:
      return .success(.number(bounds.applying(guide)))
    case (.array(var shape), .count(let count)):
      shape.minimumCount = count
      shape.maximumCount = count
      return .success(.array(shape))
    case (.array(var shape), .countRange(let lower, let upper)):
      shape.minimumCount = lower
      shape.maximumCount = upper
      return .success(.array(shape))
    case (.array(var shape), .minimumCount(let count)):
      shape.minimumCount = count
      return .success(.array(shape))
    case (.array(var shape), .maximumCount(let count)):
      shape.maximumCount = count
      return .success(.array(shape))
    case (.array(var shape), .element(let inner)):
      switch shape.items.applying(inner) {
      case .success(let items):
        shape.items = items
        return .success(.array(shape))
      case .failure(let mismatch):
        return .failure(mismatch)
      }
    default:
      return .failure(GuideMismatch(guide: guide.name, target: kindName))
    }
  }
}

/// A guide that does not fit the value it was given for.
struct GuideMismatch: Error, Sendable {
  /// The guide's name, such as `count`.
  var guide: String
  /// What the guide was applied to.
  var target: String

  /// A one-line description.
  var message: String { "the guide .\(guide) does not apply to \(target)" }
}

extension SchemaNode.NumberBounds {
  /// These bounds narrowed by a numeric guide.
  fileprivate func applying(_ guide: GuideConstraint) -> Self {
    var bounds = self
    switch guide {
    case .minimum(let value):
      bounds.minimum = value
    case .maximum(let value):
      bounds.maximum = value
    case .range(let lower, let upper):
      bounds.minimum = lower
      bounds.maximum = upper
    default:
      break
    }
    return bounds
  }
}
