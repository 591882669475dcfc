/// A schema built at run time, for output whose shape is only known while the program runs.
///
/// Schemas may refer to each other by name; ``GenerationSchema/init(root:dependencies:)`` resolves
/// the references:
///
/// ```swift
/// let activity = DynamicGenerationSchema(
///   name: "Activity",
///   properties: [
///     .init(name: "title", schema: .init(type: String.self)),
///     .init(name: "kind", schema: .init(name: "Kind", anyOf: ["hiking", "museum"])),
///   ])
/// let day = DynamicGenerationSchema(
///   name: "Day",
///   properties: [.init(name: "activities", schema: .init(arrayOf: .init(referenceTo: "Activity")))])
/// let schema = try GenerationSchema(root: day, dependencies: [activity])
/// ```
public struct DynamicGenerationSchema: Sendable {
  /// What the schema describes.
  let body: Body

  /// The kinds of dynamic schema.
  indirect enum Body: Sendable {
    /// A named structure.
    case object(name: String, description: String?, properties: [Property])
    /// A named union of schemas.
    case union(name: String, description: String?, choices: [DynamicGenerationSchema])
    /// A named set of strings.
    case strings(name: String, description: String?, choices: [String])
    /// An array.
    case array(item: DynamicGenerationSchema, minimumCount: Int?, maximumCount: Int?)
    /// A reference to a named schema.
    case reference(String)
    /// The schema of a `Generable` type, with guides applied.
    case generable(GenerationSchema, guides: [GuideConstraint])
  }

  /// Creates a structure schema.
  ///
  /// - Parameters:
  ///   - name: A name other schemas can refer to this one by.
  ///   - description: What the structure is, for the model.
  ///   - properties: The structure's properties, in the order the model should generate them.
  public init(name: String, description: String? = nil, properties: [DynamicGenerationSchema.Property]) {
    body = .object(name: name, description: description, properties: properties)
  }

  /// Creates a union schema: a value matches one of the choices.
  ///
  /// - Parameters:
  ///   - name: A name other schemas can refer to this one by.
  ///   - description: What the union is, for the model.
  ///   - choices: The schemas a value may match.
  public init(name: String, description: String? = nil, anyOf choices: [DynamicGenerationSchema]) {
    body = .union(name: name, description: description, choices: choices)
  }

  /// Creates a string enumeration schema: a value is one of the given strings.
  ///
  /// - Parameters:
  ///   - name: A name other schemas can refer to this one by.
  ///   - description: What the enumeration is, for the model.
  ///   - choices: The allowed strings.
  public init(name: String, description: String? = nil, anyOf choices: [String]) {
    body = .strings(name: name, description: description, choices: choices)
  }

  /// Creates an array schema.
  ///
  /// - Parameters:
  ///   - itemSchema: The schema of every element.
  ///   - minimumElements: The fewest elements allowed.
  ///   - maximumElements: The most elements allowed.
  public init(arrayOf itemSchema: DynamicGenerationSchema, minimumElements: Int? = nil, maximumElements: Int? = nil) {
    body = .array(item: itemSchema, minimumCount: minimumElements, maximumCount: maximumElements)
  }

  /// Creates a reference to another schema, resolved by ``GenerationSchema/init(root:dependencies:)``.
  ///
  /// - Parameter name: The name of the schema referred to.
  public init(referenceTo name: String) {
    body = .reference(name)
  }

  /// Creates a schema from a `Generable` type, with guides.
  ///
  /// - Parameters:
  ///   - type: The type.
  ///   - guides: Constraints on the type's values.
  public init<Value: Generable>(type: Value.Type, guides: [GenerationGuide<Value>] = []) {
    body = .generable(Value.generationSchema, guides: guides.map(\.constraint))
  }

  /// The name other schemas can refer to this one by, if it has one.
  var name: String? {
    switch body {
    case .object(let name, _, _), .union(let name, _, _), .strings(let name, _, _): name
    case .generable(let schema, _): schema.root.definitionName
    case .array, .reference: nil
    }
  }
}

extension DynamicGenerationSchema {
  /// A property of a dynamic structure schema.
  public struct Property: Sendable {
    /// The property's name, which is also its JSON key.
    let name: String
    /// What the property holds, for the model.
    let description: String?
    /// The property's schema.
    let schema: DynamicGenerationSchema
    /// Whether the model may leave the property out.
    let isOptional: Bool

    /// Creates a property.
    ///
    /// - Parameters:
    ///   - name: The property's name, which is also its JSON key.
    ///   - description: What the property holds, for the model.
    ///   - schema: The property's schema.
    ///   - isOptional: Whether the model may leave the property out.
    public init(name: String, description: String? = nil, schema: DynamicGenerationSchema, isOptional: Bool = false) {
      self.name = name
      self.description = description
      self.schema = schema
      self.isOptional = isOptional
    }
  }
}
