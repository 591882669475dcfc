/// A description of a type's properties and the guides on their values, which constrains the
/// model's output while decoding.
///
/// `@Generable` builds a schema for each type. Build one by hand for a type that conforms to
/// `Generable` without the macro, or from ``DynamicGenerationSchema`` values at run time:
///
/// ```swift
/// GenerationSchema(
///   type: Rating.self, description: "A review score",
///   properties: [GenerationSchema.Property(name: "stars", type: Int.self, guides: [.range(1...5)])])
/// ```
///
/// Nested named types become definitions the schema refers to. The schema converts to JSON Schema
/// for the grammar and for prompts.
public struct GenerationSchema: Sendable, Codable, CustomDebugStringConvertible {
  /// The schema of the value itself.
  var root: SchemaNode
  /// The named types the root refers to, in order of first use.
  var definitions: [Definition]
  /// Guides that did not fit the values they were given for, and other problems found while building.
  var issues: [String]

  /// A named type a schema refers to.
  struct Definition: Sendable, Codable, Equatable {
    /// The type's name, as used in references.
    var name: String
    /// The type's schema.
    var node: SchemaNode
  }

  init(root: SchemaNode, definitions: [Definition] = [], issues: [String] = []) {
    self.root = root
    self.definitions = definitions
    self.issues = issues
  }

  /// Creates a schema for a structure from its properties.
  ///
  /// - Parameters:
  ///   - type: The type the schema describes; its name names the schema.
  ///   - description: What the type is, for the model.
  ///   - properties: The properties, in the order the model should generate them.
  public init(type: any Generable.Type, description: String? = nil, properties: [GenerationSchema.Property]) {
    var collector = DefinitionCollector()
    var shapes: [SchemaNode.PropertyShape] = []
    var seen = Set<String>()
    let name = Self.typeName(type)
    for property in properties {
      collector.merge(property.definitions, issues: property.issues)
      if !seen.insert(property.name).inserted {
        collector.issues.append("\(name) has two properties named \"\(property.name)\"")
        continue
      }
      shapes.append(
        SchemaNode.PropertyShape(
          name: property.name, description: property.description, node: property.node,
          isOptional: property.isOptional))
    }
    let root = SchemaNode.object(.init(name: name, description: description, properties: shapes))
    self.init(root: root, definitions: collector.definitions, issues: collector.issues)
  }

  /// Creates a schema for a string enumeration: the model generates one of the given strings.
  ///
  /// - Parameters:
  ///   - type: The type the schema describes; its name names the schema.
  ///   - description: What the type is, for the model.
  ///   - choices: The strings the model may choose from.
  public init(type: any Generable.Type, description: String? = nil, anyOf choices: [String]) {
    self.init(root: .stringEnum(.init(name: Self.typeName(type), description: description, choices: choices)))
  }

  /// Creates a schema for a union: the model generates a value of one of the given types.
  ///
  /// - Parameters:
  ///   - type: The type the schema describes; its name names the schema.
  ///   - description: What the type is, for the model.
  ///   - types: The types a value may have.
  public init(type: any Generable.Type, description: String? = nil, anyOf types: [any Generable.Type]) {
    var collector = DefinitionCollector()
    var choices: [SchemaNode] = []
    for choice in types {
      choices.append(collector.embed(choice.generationSchema))
    }
    let root = SchemaNode.union(.init(name: Self.typeName(type), description: description, choices: choices))
    self.init(root: root, definitions: collector.definitions, issues: collector.issues)
  }

  /// The schema's name: the name of the type it describes, or empty for an unnamed value.
  package var name: String { root.definitionName ?? "" }

  /// The schema as indented JSON Schema.
  public var debugDescription: String { jsonSchema() }

  /// The name a type's schema goes by.
  static func typeName(_ type: Any.Type) -> String {
    String(describing: type)
  }
}

extension GenerationSchema {
  /// A property of a structure's schema: its name, description, type and guides.
  public struct Property: Sendable {
    let name: String
    let description: String?
    let node: SchemaNode
    let definitions: [Definition]
    let isOptional: Bool
    let issues: [String]

    /// Creates a property the model must generate.
    ///
    /// - Parameters:
    ///   - name: The property's name, which is also its JSON key.
    ///   - description: What the property holds, for the model.
    ///   - type: The property's type.
    ///   - guides: Constraints on the property's values.
    @_disfavoredOverload
    public init<Value: Generable>(
      name: String, description: String? = nil, type: Value.Type, guides: [GenerationGuide<Value>] = []
    ) {
      self.init(
        name: name, description: description, schema: Value.generationSchema, isOptional: false,
        guides: guides.map(\.constraint))
    }

    /// Creates a property the model may leave out.
    ///
    /// - Parameters:
    ///   - name: The property's name, which is also its JSON key.
    ///   - description: What the property holds, for the model.
    ///   - type: The property's optional type.
    ///   - guides: Constraints on the property's values when present.
    public init<Value: Generable>(
      name: String, description: String? = nil, type: Value?.Type, guides: [GenerationGuide<Value>] = []
    ) {
      self.init(
        name: name, description: description, schema: Value.generationSchema, isOptional: true,
        guides: guides.map(\.constraint))
    }

    /// Creates a string property whose values match each of `guides`, regular expressions such
    /// as `/[A-Z]{3}-\d+/` (as ``GenerationGuide/pattern(_:)-(Regex<Output>)`` enforces them).
    public init<RegexOutput>(
      name: String, description: String? = nil, type: String.Type, guides: [Regex<RegexOutput>] = []
    ) {
      self.init(
        name: name, description: description, schema: String.generationSchema, isOptional: false,
        guides: guides.map { GenerationGuide<String>.pattern($0).constraint })
    }

    /// Creates a string property the model may leave out, whose values match each of `guides`.
    public init<RegexOutput>(
      name: String, description: String? = nil, type: String?.Type, guides: [Regex<RegexOutput>] = []
    ) {
      self.init(
        name: name, description: description, schema: String.generationSchema, isOptional: true,
        guides: guides.map { GenerationGuide<String>.pattern($0).constraint })
    }

    private init(
      name: String, description: String?, schema: GenerationSchema, isOptional: Bool, guides: [GuideConstraint]
    ) {
      var collector = DefinitionCollector()
      var node = collector.embed(schema)
      for guide in guides {
        switch node.applying(guide) {
        case .success(let guided):
          node = guided
        case .failure(let mismatch):
          collector.issues.append("property \"\(name)\": \(mismatch.message)")
        }
      }
      self.name = name
      self.description = description
      self.node = node
      self.definitions = collector.definitions
      self.isOptional = isOptional
      self.issues = collector.issues
    }
  }
}

/// Gathers the named types of the schemas embedded in a new schema, once each, in order of first use.
struct DefinitionCollector {
  /// The definitions gathered so far.
  private(set) var definitions: [GenerationSchema.Definition] = []
  /// Problems found so far.
  var issues: [String] = []

  /// Adds definitions, keeping the first of two with one name; two different ones are an issue.
  mutating func merge(_ incoming: [GenerationSchema.Definition], issues incomingIssues: [String]) {
    for definition in incoming {
      add(definition)
    }
    for issue in incomingIssues where !issues.contains(issue) {
      issues.append(issue)
    }
  }

  /// Adds one definition unless one with its name exists.
  mutating func add(_ definition: GenerationSchema.Definition) {
    if let existing = definitions.first(where: { $0.name == definition.name }) {
      if existing.node != definition.node {
        issues.append("two different types are named \(definition.name); rename one of them")
      }
      return
    }
    definitions.append(definition)
  }

  /// The node to use for a value of the given schema: a reference when the schema is a named type.
  mutating func embed(_ schema: GenerationSchema) -> SchemaNode {
    guard let name = schema.root.definitionName else {
      merge(schema.definitions, issues: schema.issues)
      return schema.root
    }
    add(GenerationSchema.Definition(name: name, node: schema.root))
    merge(schema.definitions, issues: schema.issues)
    return .reference(name)
  }
}
