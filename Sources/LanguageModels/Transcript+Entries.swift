import Foundation

extension Transcript {
  /// The instructions entry: what the session was told, and the tools it was given.
  public struct Instructions: Sendable, Equatable, Codable, Identifiable {
    /// The entry's identifier.
    public var id: String
    /// The instructions' content.
    public var segments: [Segment]
    /// The tools the session could call.
    public var toolDefinitions: [ToolDefinition]

    /// An instructions entry.
    public init(id: String = UUID().uuidString, segments: [Segment], toolDefinitions: [ToolDefinition]) {
      self.id = id
      self.segments = segments
      self.toolDefinitions = toolDefinitions
    }
  }

  /// A tool as the model was told about it.
  public struct ToolDefinition: Sendable, Equatable, Codable {
    /// The tool's name.
    public var name: String
    /// What the tool does.
    public var description: String
    /// The schema of its arguments.
    public var parameters: GenerationSchema

    /// A definition of a tool named `name`.
    public init(name: String, description: String, parameters: GenerationSchema) {
      self.name = name
      self.description = description
      self.parameters = parameters
    }

    /// The definition of `tool`.
    public init(tool: some Tool) {
      self.init(name: tool.name, description: tool.description, parameters: tool.parameters)
    }

    /// Definitions are equal when they name the same tool with the same description and schema.
    public static func == (lhs: ToolDefinition, rhs: ToolDefinition) -> Bool {
      lhs.name == rhs.name && lhs.description == rhs.description
        && lhs.parameters.debugDescription == rhs.parameters.debugDescription
    }
  }

  /// A prompt entry, with the options and response format it was answered with.
  public struct Prompt: Sendable, Equatable, Codable, Identifiable {
    /// The entry's identifier.
    public var id: String
    /// The prompt's content.
    public var segments: [Segment]
    /// The generation options used.
    public var options: GenerationOptions
    /// The format the answer had to follow, if any.
    public var responseFormat: ResponseFormat?

    /// A prompt entry.
    public init(
      id: String = UUID().uuidString, segments: [Segment], options: GenerationOptions = GenerationOptions(),
      responseFormat: ResponseFormat? = nil
    ) {
      self.id = id
      self.segments = segments
      self.options = options
      self.responseFormat = responseFormat
    }
  }

  /// The format a guided answer had to follow.
  public struct ResponseFormat: Sendable, Equatable, Codable {
    /// The name of the type or schema.
    public var name: String

    /// The format of a `@Generable` type.
    public init(type: (some Generable).Type) {
      name = String(describing: type)
    }

    /// The format of a schema built at run time.
    public init(schema: GenerationSchema) {
      name = "GenerationSchema"
    }
  }

  /// The tool calls the model made in one step.
  public struct ToolCalls: Sendable, Equatable, Codable, Identifiable, RandomAccessCollection {
    /// The entry's identifier.
    public var id: String
    /// The calls, in order.
    public var calls: [ToolCall]

    /// A tool-calls entry.
    public init(id: String = UUID().uuidString, _ calls: some Sequence<ToolCall>) {
      self.id = id
      self.calls = Array(calls)
    }

    /// The index of the first call.
    public var startIndex: Int { calls.startIndex }
    /// One past the index of the last call.
    public var endIndex: Int { calls.endIndex }
    /// The call at `position`.
    public subscript(position: Int) -> ToolCall { calls[position] }
  }

  /// One call the model made to a tool.
  public struct ToolCall: Sendable, Equatable, Codable, Identifiable {
    /// The call's identifier.
    public var id: String
    /// The tool's name.
    public var toolName: String
    /// The arguments the model wrote.
    public var arguments: GeneratedContent

    /// A call of `toolName` with `arguments`.
    public init(id: String = UUID().uuidString, toolName: String, arguments: GeneratedContent) {
      self.id = id
      self.toolName = toolName
      self.arguments = arguments
    }
  }

  /// A tool's output, as the model was given it.
  public struct ToolOutput: Sendable, Equatable, Codable, Identifiable {
    /// The entry's identifier.
    public var id: String
    /// The tool's name.
    public var toolName: String
    /// The output.
    public var segments: [Segment]

    /// A tool-output entry.
    public init(id: String = UUID().uuidString, toolName: String, segments: [Segment]) {
      self.id = id
      self.toolName = toolName
      self.segments = segments
    }
  }

  /// A response of the model.
  public struct Response: Sendable, Equatable, Codable, Identifiable {
    /// The entry's identifier.
    public var id: String
    /// The identifiers of the model assets that produced it (the weights' name).
    public var assetIDs: [String]
    /// The response's content.
    public var segments: [Segment]

    /// A response entry.
    public init(id: String = UUID().uuidString, assetIDs: [String], segments: [Segment]) {
      self.id = id
      self.assetIDs = assetIDs
      self.segments = segments
    }
  }
}
