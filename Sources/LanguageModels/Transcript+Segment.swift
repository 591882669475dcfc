import Foundation

extension Transcript {
  /// A piece of an entry's content: text, or structured content.
  public enum Segment: Sendable, Equatable, Codable, Identifiable {
    /// Text.
    case text(TextSegment)
    /// Structured content (a guided answer, say).
    case structure(StructuredSegment)

    /// The segment's identifier.
    public var id: String {
      switch self {
      case .text(let segment): segment.id
      case .structure(let segment): segment.id
      }
    }
  }

  /// Text in an entry.
  public struct TextSegment: Sendable, Equatable, Codable, Identifiable {
    /// The segment's identifier.
    public var id: String
    /// The text.
    public var content: String

    /// A text segment holding `content`.
    public init(id: String = UUID().uuidString, content: String) {
      self.id = id
      self.content = content
    }
  }

  /// Structured content in an entry, with the name of what produced it.
  public struct StructuredSegment: Sendable, Equatable, Codable, Identifiable {
    /// The segment's identifier.
    public var id: String
    /// What produced the content (a type's name, say).
    public var source: String
    /// The content.
    public var content: GeneratedContent

    /// A structured segment holding `content` from `source`.
    public init(id: String = UUID().uuidString, source: String, content: GeneratedContent) {
      self.id = id
      self.source = source
      self.content = content
    }
  }
}
