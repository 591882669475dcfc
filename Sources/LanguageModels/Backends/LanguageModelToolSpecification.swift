/// A tool as a backend offers it to the model: name, description and the schema of its arguments.
public struct LanguageModelToolSpecification: Sendable {
  /// The schema of a tool's arguments.
  public enum Parameters: Sendable {
    /// A ``GenerationSchema`` (a ``Tool``'s ``Tool/parameters``).
    case schema(GenerationSchema)
    /// A JSON Schema given as text (from an OpenAI client, for instance).
    case jsonSchema(String)
  }

  /// The tool's name, as the model writes it in a call.
  public var name: String
  /// When and why to call the tool.
  public var description: String
  /// The schema the call's arguments follow.
  public var parameters: Parameters
  /// Whether the arguments' schema is shown to the model (it is enforced either way).
  public var includesSchemaInInstructions: Bool

  /// A tool named `name`, described by `description`, taking `parameters`.
  public init(name: String, description: String, parameters: Parameters, includesSchemaInInstructions: Bool = true) {
    self.name = name
    self.description = description
    self.parameters = parameters
    self.includesSchemaInInstructions = includesSchemaInInstructions
  }

  /// The specification of `tool`.
  public init(tool: some Tool) {
    self.init(
      name: tool.name, description: tool.description, parameters: .schema(tool.parameters),
      includesSchemaInInstructions: tool.includesSchemaInInstructions)
  }

  /// The arguments' schema as JSON Schema text.
  public var parametersJSONSchema: String {
    switch parameters {
    case .schema(let schema): schema.jsonSchema()
    case .jsonSchema(let text): text
    }
  }
}
