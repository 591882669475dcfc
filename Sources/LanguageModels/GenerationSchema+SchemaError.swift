import Foundation

extension GenerationSchema {
  /// Why a set of dynamic schemas could not be turned into a ``GenerationSchema``.
  public enum SchemaError: Error, LocalizedError, Sendable {
    /// A structure has two properties with one name.
    case duplicateProperty(schema: String, property: String, context: GenerationSchema.SchemaError.Context)
    /// Two schemas have one name.
    case duplicateType(schema: String?, type: String, context: GenerationSchema.SchemaError.Context)
    /// A union or string enumeration has no choices.
    case emptyTypeChoices(schema: String, context: GenerationSchema.SchemaError.Context)
    /// References name schemas that are not among the root and its dependencies.
    case undefinedReferences(schema: String?, references: [String], context: GenerationSchema.SchemaError.Context)

    /// Where and why the error happened.
    public struct Context: Sendable {
      /// A description of the problem, for debugging.
      public let debugDescription: String

      /// Creates a context.
      ///
      /// - Parameter debugDescription: A description of the problem.
      public init(debugDescription: String) {
        self.debugDescription = debugDescription
      }
    }

    /// A one-line description of the problem.
    public var errorDescription: String? {
      switch self {
      case .duplicateProperty(let schema, let property, _):
        "The schema \(schema) has more than one property named \"\(property)\"."
      case .duplicateType(_, let type, _):
        "More than one schema is named \(type)."
      case .emptyTypeChoices(let schema, _):
        "The schema \(schema) has no choices."
      case .undefinedReferences(_, let references, _):
        "No schema is named \(references.joined(separator: ", ")), but a reference names it."
      }
    }

    /// What to do about the problem.
    public var recoverySuggestion: String? {
      switch self {
      case .duplicateProperty: "Give every property of a schema a different name."
      case .duplicateType: "Give every named schema a different name."
      case .emptyTypeChoices: "Give the schema at least one choice."
      case .undefinedReferences: "Pass every schema a reference names in dependencies, or fix the reference's name."
      }
    }

    /// The context of the error.
    public var context: Context {
      switch self {
      case .duplicateProperty(_, _, let context), .duplicateType(_, _, let context), .emptyTypeChoices(_, let context),
        .undefinedReferences(_, _, let context):
        context
      }
    }
  }
}
