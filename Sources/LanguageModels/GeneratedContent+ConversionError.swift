import Foundation

extension GeneratedContent {
  /// Why generated content could not be read as JSON or converted to a Swift value.
  public enum ConversionError: Error, LocalizedError, Sendable, Equatable {
    /// The text is not valid JSON: the byte offset of the problem and what was wrong there.
    case invalidJSON(offset: Int, reason: String)
    /// A structure lacks a property the type requires.
    case missingProperty(String)
    /// The content holds a different kind of value than the type expects.
    case typeMismatch(expected: String, found: String)
    /// A string names no case of an enumeration: the string and the enumeration's name.
    case unknownCase(String, type: String)
    /// A number does not fit the type: the number and the type's name.
    case numberOutOfRange(Double, type: String)

    /// A one-line description of the problem.
    public var errorDescription: String? {
      switch self {
      case .invalidJSON(let offset, let reason):
        "Invalid JSON at byte \(offset): \(reason)."
      case .missingProperty(let name):
        "The generated content has no property \"\(name)\"."
      case .typeMismatch(let expected, let found):
        "Expected \(expected) in the generated content but found \(found)."
      case .unknownCase(let value, let type):
        "\"\(value)\" is not a case of \(type)."
      case .numberOutOfRange(let number, let type):
        "The number \(number) does not fit in \(type)."
      }
    }

    /// What to do about the problem.
    public var recoverySuggestion: String? {
      switch self {
      case .invalidJSON:
        "Pass complete JSON text, or use a streaming snapshot for partial output."
      case .missingProperty, .typeMismatch, .unknownCase, .numberOutOfRange:
        "Generate with the type's schema so the model's output has the type's shape, or make the property optional."
      }
    }
  }
}
