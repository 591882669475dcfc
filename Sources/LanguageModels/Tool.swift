import Foundation

/// A capability the model can call while answering: look something up, compute, act.
///
/// The model reads the tool's ``name`` and ``description`` and decides when to call it; its
/// arguments are generated under the grammar of ``parameters``, so they always decode into
/// ``Arguments``. The output goes back into the conversation before the model continues.
///
/// ```swift
/// struct FindPointsOfInterest: Tool {
///   let name = "findPointsOfInterest"
///   let description = "Finds places of a category near the landmark."
///   @Generable struct Arguments {
///     @Guide(.anyOf(["restaurant", "campground", "museum"])) var category: String
///   }
///   func call(arguments: Arguments) async throws -> String { ... }
/// }
/// ```
public protocol Tool<Arguments, Output>: Sendable {
  /// What the model generates to call the tool.
  associatedtype Arguments: ConvertibleFromGeneratedContent
  /// What the tool returns; its text goes back to the model.
  associatedtype Output: PromptRepresentable

  /// A unique name, in the style of an identifier.
  var name: String { get }
  /// When and why to call the tool, in plain language.
  var description: String { get }
  /// The schema of ``Arguments``.
  var parameters: GenerationSchema { get }
  /// Whether the tool's schema is described in the instructions.
  var includesSchemaInInstructions: Bool { get }

  /// Runs the tool with arguments the model generated.
  func call(arguments: Arguments) async throws -> Output
}

extension Tool where Arguments: Generable {
  /// The schema of the generable arguments.
  public var parameters: GenerationSchema { Arguments.generationSchema }
}

extension Tool {
  /// Tools are described in the instructions unless they say otherwise.
  public var includesSchemaInInstructions: Bool { true }

  /// The type name, as a default tool name.
  public var name: String { String(describing: Self.self) }
}

extension LanguageModelSession {
  /// A tool failed while the model was using it.
  public struct ToolCallError: Error, LocalizedError {
    /// The tool that failed.
    public var tool: any Tool
    /// What the tool threw.
    public var underlyingError: any Error

    /// An error for `tool` failing with `underlyingError`.
    public init(tool: any Tool, underlyingError: any Error) {
      self.tool = tool
      self.underlyingError = underlyingError
    }

    /// A one-line message naming the tool and its failure.
    public var errorDescription: String? {
      "the tool '\(tool.name)' failed: \((underlyingError as? LocalizedError)?.errorDescription ?? String(describing: underlyingError))"
    }
  }
}
