extension GenerationSchema {
  /// The schema as JSON Schema (a draft 2020-12 subset), indented, for the grammar layer.
  ///
  /// Object properties appear in declaration order; all are required except optionals; objects
  /// allow no other properties; named nested types sit in `$defs` and are used through `$ref`.
  /// Guides become keywords: counts become `minItems`/`maxItems`, `element` guides apply to
  /// `items`, ranges become `minimum`/`maximum`, `anyOf` becomes `enum`, `constant` becomes `const`
  /// and patterns become anchored `pattern`s in the subset llama.cpp enforces.
  package func jsonSchema() -> String {
    JSONWriter.string(for: jsonSchemaContent(), isPrettyPrinted: true)
  }

  /// A compact rendering of the schema for prompts: the JSON Schema on one line.
  package func promptDescription() -> String {
    JSONWriter.string(for: jsonSchemaContent())
  }

  /// The JSON Schema as generated content, with keys in order.
  func jsonSchemaContent() -> GeneratedContent {
    var keywords = Self.keywords(for: root, description: nil)
    if !definitions.isEmpty {
      let definitionKeywords = definitions.map { ($0.name, Self.object(Self.keywords(for: $0.node, description: nil))) }
      keywords.append(("$defs", Self.object(definitionKeywords)))
    }
    return Self.object(keywords)
  }

  /// The JSON Schema keywords describing one node, in a stable order.
  private static func keywords(for node: SchemaNode, description: String?) -> [(String, GeneratedContent)] {
    var keywords: [(String, GeneratedContent)] = []
    func add(_ key: String, _ value: GeneratedContent?) {
      if let value {
        keywords.append((key, value))
      }
    }
    func text(_ value: String?) -> GeneratedContent? { value.map { GeneratedContent(kind: .string($0)) } }
    func number(_ value: Double?) -> GeneratedContent? { value.map { GeneratedContent(kind: .number($0)) } }
    func count(_ value: Int?) -> GeneratedContent? { value.map { GeneratedContent(kind: .number(Double($0))) } }
    func strings(_ values: [String]) -> GeneratedContent {
      GeneratedContent(kind: .array(values.map { GeneratedContent(kind: .string($0)) }))
    }

    switch node {
    case .string(let rules):
      add("type", text("string"))
      add("description", text(description))
      add("const", text(rules.constant))
      add("enum", rules.choices.map(strings))
      add("pattern", text(rules.patterns.first.map { SchemaPattern($0).text }))
    case .integer(let bounds), .number(let bounds):
      if case .integer = node {
        add("type", text("integer"))
      } else {
        add("type", text("number"))
      }
      add("description", text(description))
      add("minimum", number(bounds.minimum))
      add("maximum", number(bounds.maximum))
    case .boolean:
      add("type", text("boolean"))
      add("description", text(description))
    case .null:
      add("type", text("null"))
      add("description", text(description))
    case .any:
      add("description", text(description))
    case .array(let shape):
      add("type", text("array"))
      add("description", text(description))
      add("items", object(Self.keywords(for: shape.items, description: nil)))
      add("minItems", count(shape.minimumCount))
      add("maxItems", count(shape.maximumCount))
    case .object(let shape):
      add("type", text("object"))
      add("description", text(description ?? shape.description))
      let properties = shape.properties.map {
        ($0.name, object(Self.keywords(for: $0.node, description: $0.description)))
      }
      add("properties", object(properties))
      add("required", strings(shape.properties.filter { !$0.isOptional }.map(\.name)))
      add("additionalProperties", GeneratedContent(kind: .bool(false)))
    case .stringEnum(let shape):
      add("type", text("string"))
      add("description", text(description ?? shape.description))
      add("enum", strings(shape.choices))
    case .union(let shape):
      add("description", text(description ?? shape.description))
      add(
        "anyOf", GeneratedContent(kind: .array(shape.choices.map { object(Self.keywords(for: $0, description: nil)) })))
    case .reference(let name):
      add("$ref", text("#/$defs/" + name))
      add("description", text(description))
    }
    return keywords
  }

  /// A structure with properties in the given order.
  private static func object(_ pairs: [(String, GeneratedContent)]) -> GeneratedContent {
    var properties: [String: GeneratedContent] = [:]
    var keys: [String] = []
    for (key, value) in pairs where properties.updateValue(value, forKey: key) == nil {
      keys.append(key)
    }
    return GeneratedContent(kind: .structure(properties: properties, orderedKeys: keys))
  }
}
