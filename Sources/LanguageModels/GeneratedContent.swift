/// A value the model generated: `null`, a Boolean, a number, a string, an array or a structure.
///
/// Structures keep their properties in the order they were generated (or given), so a value written
/// back to JSON reads the same as the model's output.
///
/// ```swift
/// let content = try GeneratedContent(json: #"{"title": "Joshua Tree", "days": 3}"#)
/// let title = try content.value(String.self, forProperty: "title")
/// ```
public struct GeneratedContent: Sendable, Equatable, CustomDebugStringConvertible {
  /// The kinds of value generated content can hold.
  public enum Kind: Sendable, Equatable {
    /// The JSON `null` value.
    case null
    /// A Boolean value.
    case bool(Bool)
    /// A number. Integers are held exactly up to 2^53.
    case number(Double)
    /// A string.
    case string(String)
    /// An ordered list of values.
    case array([GeneratedContent])
    /// A structure: its properties by name, and their names in order.
    case structure(properties: [String: GeneratedContent], orderedKeys: [String])
  }

  /// The value this content holds.
  public var kind: Kind

  /// The identifier of this content, stable across the snapshots of one streamed response.
  public var id: GenerationID?

  /// Whether the content is whole; `false` for a snapshot of a value still being generated.
  public internal(set) var isComplete: Bool

  /// Creates content of the given kind.
  ///
  /// - Parameters:
  ///   - kind: The value.
  ///   - id: An identifier for the value.
  public init(kind: Kind, id: GenerationID? = nil) {
    self.kind = kind
    self.id = id
    self.isComplete = true
  }

  /// Creates content holding a value's generated content.
  ///
  /// - Parameter value: A value that can be represented as generated content.
  public init(_ value: some ConvertibleToGeneratedContent) {
    self = value.generatedContent
  }

  /// Creates content holding a value's generated content, with an identifier.
  ///
  /// - Parameters:
  ///   - value: A value that can be represented as generated content.
  ///   - id: An identifier for the value.
  public init(_ value: some ConvertibleToGeneratedContent, id: GenerationID) {
    self = value.generatedContent
    self.id = id
  }

  /// Creates a structure from properties, in the order given.
  ///
  /// For a `Generable` type the order should match the order of the properties in its schema. When
  /// a name repeats, the last value wins and keeps the position of the first.
  ///
  /// - Parameters:
  ///   - properties: The properties' names and values.
  ///   - id: An identifier for the structure.
  public init(properties: KeyValuePairs<String, any ConvertibleToGeneratedContent>, id: GenerationID? = nil) {
    var values: [String: GeneratedContent] = [:]
    var keys: [String] = []
    for (key, value) in properties {
      if values.updateValue(value.generatedContent, forKey: key) == nil {
        keys.append(key)
      }
    }
    self.init(kind: .structure(properties: values, orderedKeys: keys), id: id)
  }

  /// Creates a structure from a sequence of properties, in the order given.
  ///
  /// - Parameters:
  ///   - properties: The properties' names and values.
  ///   - id: An identifier for the structure.
  ///   - combine: Chooses the value for a name that appears more than once, given the earlier and
  ///     the later value.
  public init<S: Sequence>(
    properties: S, id: GenerationID? = nil,
    uniquingKeysWith combine: (GeneratedContent, GeneratedContent) throws -> some ConvertibleToGeneratedContent
  ) rethrows where S.Element == (String, any ConvertibleToGeneratedContent) {
    var values: [String: GeneratedContent] = [:]
    var keys: [String] = []
    for (key, value) in properties {
      let content = value.generatedContent
      if let existing = values[key] {
        values[key] = try combine(existing, content).generatedContent
      } else {
        values[key] = content
        keys.append(key)
      }
    }
    self.init(kind: .structure(properties: values, orderedKeys: keys), id: id)
  }

  /// Creates an array from a sequence of elements.
  ///
  /// - Parameters:
  ///   - elements: The array's elements.
  ///   - id: An identifier for the array.
  public init<S: Sequence>(elements: S, id: GenerationID? = nil) where S.Element == any ConvertibleToGeneratedContent {
    self.init(kind: .array(elements.map { $0.generatedContent }), id: id)
  }

  /// Converts this content to a value of the given type.
  ///
  /// - Parameter type: The type to convert to.
  /// - Returns: The converted value.
  /// - Throws: An error when the content does not have the shape the type expects.
  public func value<Value: ConvertibleFromGeneratedContent>(_ type: Value.Type = Value.self) throws -> Value {
    try Value(self)
  }

  /// Converts one of this structure's properties to a value of the given type.
  ///
  /// - Parameters:
  ///   - type: The type to convert to.
  ///   - property: The property's name.
  /// - Returns: The converted value.
  /// - Throws: ``ConversionError/missingProperty(_:)`` when the structure has no such property, or
  ///   an error when the property does not have the shape the type expects.
  public func value<Value: ConvertibleFromGeneratedContent>(
    _ type: Value.Type = Value.self, forProperty property: String
  ) throws -> Value {
    guard let content = try propertyContent(property) else {
      throw ConversionError.missingProperty(property)
    }
    return try Value(content)
  }

  /// Converts one of this structure's properties to a value of the given type, or `nil` when the
  /// property is absent or `null`.
  ///
  /// - Parameters:
  ///   - type: The optional type to convert to.
  ///   - property: The property's name.
  /// - Returns: The converted value, or `nil`.
  /// - Throws: An error when the property does not have the shape the type expects.
  public func value<Value: ConvertibleFromGeneratedContent>(
    _ type: Value?.Type = Value?.self, forProperty property: String
  ) throws -> Value? {
    guard let content = try propertyContent(property), content.kind != .null else { return nil }
    return try Value(content)
  }

  /// A textual representation of the content, as JSON.
  public var debugDescription: String { jsonString }

  /// Two contents are equal when they hold equal values; identifiers and completeness are ignored.
  public static func == (lhs: GeneratedContent, rhs: GeneratedContent) -> Bool {
    lhs.kind == rhs.kind
  }

  /// A property's content, `nil` when absent; throws when this content is not a structure.
  private func propertyContent(_ property: String) throws -> GeneratedContent? {
    guard case .structure(let properties, _) = kind else {
      throw ConversionError.typeMismatch(expected: "a structure with a property \"\(property)\"", found: kindName)
    }
    return properties[property]
  }

  /// A short description of the kind of value held, for error messages.
  var kindName: String {
    switch kind {
    case .null: "null"
    case .bool: "a Boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .structure: "a structure"
    }
  }
}
