extension GenerationSchema {
  /// Creates a schema from dynamic schemas, resolving references between them by name.
  ///
  /// - Parameters:
  ///   - root: The schema of the value to generate.
  ///   - dependencies: Named schemas that the root, or each other, refer to.
  /// - Throws: ``SchemaError`` for two schemas with one name, two properties with one name, a
  ///   union or enumeration without choices, or references to names that are not defined.
  public init(root: DynamicGenerationSchema, dependencies: [DynamicGenerationSchema]) throws {
    var resolver = DynamicSchemaResolver()
    for schema in [root] + dependencies {
      try resolver.declare(schema)
    }
    let rootNode = try resolver.convert(root, isRoot: true)
    for dependency in dependencies {
      _ = try resolver.convert(dependency, isRoot: false)
    }
    var defined = Set(resolver.declared.keys)
    for definition in resolver.collector.definitions {
      defined.insert(definition.name)
    }
    let undefined = resolver.references.filter { !defined.contains($0) }
    if !undefined.isEmpty {
      throw SchemaError.undefinedReferences(
        schema: root.name, references: undefined,
        context: .init(
          debugDescription: "References to \(undefined.joined(separator: ", ")) have no schema of that name"))
    }
    self.init(root: rootNode, definitions: resolver.collector.definitions, issues: resolver.collector.issues)
  }
}

/// Turns dynamic schemas into schema nodes, checking names and references.
private struct DynamicSchemaResolver {
  /// Named dynamic schemas by name, with the name of the schema that declared them first.
  var declared: [String: String] = [:]
  /// The names references point at, in order of first use.
  var references: [String] = []
  /// The definitions built so far.
  var collector = DefinitionCollector()

  /// Records the names a schema and the schemas inside it declare.
  mutating func declare(_ schema: DynamicGenerationSchema) throws {
    if let name = schema.name, !isGenerable(schema) {
      if declared[name] != nil {
        throw GenerationSchema.SchemaError.duplicateType(
          schema: declared[name], type: name, context: .init(debugDescription: "Two dynamic schemas are named \(name)"))
      }
      declared[name] = name
    }
    switch schema.body {
    case .object(_, _, let properties):
      for property in properties {
        try declare(property.schema)
      }
    case .union(_, _, let choices):
      for choice in choices {
        try declare(choice)
      }
    case .array(let item, _, _):
      try declare(item)
    case .strings, .reference, .generable:
      break
    }
  }

  /// The node for a schema; named schemas other than the root become definitions and references.
  mutating func convert(_ schema: DynamicGenerationSchema, isRoot: Bool) throws -> SchemaNode {
    let node: SchemaNode
    switch schema.body {
    case .object(let name, let description, let properties):
      var shapes: [SchemaNode.PropertyShape] = []
      for property in properties {
        if shapes.contains(where: { $0.name == property.name }) {
          throw GenerationSchema.SchemaError.duplicateProperty(
            schema: name, property: property.name,
            context: .init(debugDescription: "\(name) declares \"\(property.name)\" more than once"))
        }
        let propertyNode = try convert(property.schema, isRoot: false)
        shapes.append(
          .init(
            name: property.name, description: property.description, node: propertyNode,
            isOptional: property.isOptional))
      }
      node = .object(.init(name: name, description: description, properties: shapes))
    case .union(let name, let description, let choices):
      guard !choices.isEmpty else {
        throw GenerationSchema.SchemaError.emptyTypeChoices(
          schema: name, context: .init(debugDescription: "The union \(name) has no choices"))
      }
      node = .union(
        .init(name: name, description: description, choices: try choices.map { try convert($0, isRoot: false) }))
    case .strings(let name, let description, let choices):
      guard !choices.isEmpty else {
        throw GenerationSchema.SchemaError.emptyTypeChoices(
          schema: name, context: .init(debugDescription: "The enumeration \(name) has no choices"))
      }
      node = .stringEnum(.init(name: name, description: description, choices: choices))
    case .array(let item, let minimumCount, let maximumCount):
      return .array(
        .init(items: try convert(item, isRoot: false), minimumCount: minimumCount, maximumCount: maximumCount))
    case .reference(let name):
      if !references.contains(name) {
        references.append(name)
      }
      return .reference(name)
    case .generable(let generated, let guides):
      var embedded = isRoot ? generated.root : collector.embed(generated)
      if isRoot {
        collector.merge(generated.definitions, issues: generated.issues)
      }
      for guide in guides {
        switch embedded.applying(guide) {
        case .success(let guided): embedded = guided
        case .failure(let mismatch): collector.issues.append(mismatch.message)
        }
      }
      return embedded
    }
    guard !isRoot, let name = node.definitionName else { return node }
    collector.add(GenerationSchema.Definition(name: name, node: node))
    return .reference(name)
  }

  private func isGenerable(_ schema: DynamicGenerationSchema) -> Bool {
    if case .generable = schema.body { return true }
    return false
  }
}
