import Foundation

/// A template (or a class value) split into literal text and `<class>` slots, with runs of
/// whitespace collapsed to one space and the ends trimmed.
struct TemplateBody: Sendable, Hashable {
  /// A piece of a template.
  enum Segment: Sendable, Hashable {
    /// Literal text, spaces included.
    case text(String)
    /// A `<class>` slot, by class name.
    case slot(String)
  }

  /// The pieces, in order; adjacent text is merged.
  let segments: [Segment]

  /// Parses `text`; `template` names the template being expanded, for error messages.
  init(parsing text: String, template: String) throws {
    let normalized = Self.normalizedWhitespace(text)
    var segments: [Segment] = []
    var literal = ""
    var index = normalized.startIndex
    while index < normalized.endIndex {
      let character = normalized[index]
      if character == "<" {
        let rest = normalized[normalized.index(after: index)...]
        guard let close = rest.firstIndex(where: { $0 == ">" || $0 == "<" }), normalized[close] == ">" else {
          throw CustomLanguageModelError.malformedTemplate(
            template: template, reason: "a '<' is not closed by '>'")
        }
        let name = rest[..<close].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else {
          throw CustomLanguageModelError.malformedTemplate(template: template, reason: "'<>' names no class")
        }
        if !literal.isEmpty {
          segments.append(.text(literal))
          literal = ""
        }
        segments.append(.slot(name))
        index = normalized.index(after: close)
      } else if character == ">" {
        throw CustomLanguageModelError.malformedTemplate(template: template, reason: "a '>' has no matching '<'")
      } else {
        literal.append(character)
        index = normalized.index(after: index)
      }
    }
    if !literal.isEmpty {
      segments.append(.text(literal))
    }
    self.segments = segments
  }

  /// `text` with every run of whitespace turned into one space and no space at either end.
  static func normalizedWhitespace(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
