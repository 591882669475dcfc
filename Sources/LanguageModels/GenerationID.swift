import Foundation

/// A unique identifier that stays the same for one generated value across streaming snapshots.
///
/// Give a `Generable` type a property of this type to receive the identifier of the content it was
/// built from:
///
/// ```swift
/// @Generable
/// struct SearchTerm {
///   var id: GenerationID
///   var term: String
/// }
/// ```
public struct GenerationID: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The identifier's text.
  let value: String

  /// Creates a new, unique identifier.
  public init() {
    value = UUID().uuidString
  }

  /// Creates an identifier from a known text, so that repeated parses of one response agree.
  package init(_ value: String) {
    self.value = value
  }

  /// The identifier's text.
  public var description: String { value }

  /// An identifier for a value nested inside the value this identifier names.
  ///
  /// - Parameter path: The location of the nested value, such as `days/0`.
  func appending(_ path: String) -> GenerationID {
    GenerationID(value + "/" + path)
  }
}
