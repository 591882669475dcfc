import Foundation

/// Expands templates against one set of classes: every combination of class values, with nested
/// slots inside class values expanded too.
struct TemplateExpander: Sendable {
  /// The most phrases one template may expand to, so a typo cannot exhaust memory.
  static let maximumExpansions = 100_000

  /// The classes, keyed by trimmed name.
  let classes: [String: [String]]

  /// Creates an expander over `classes`.
  init(classes: [String: [String]]) {
    var trimmed: [String: [String]] = [:]
    for (name, values) in classes {
      trimmed[name.trimmingCharacters(in: .whitespaces)] = values
    }
    self.classes = trimmed
  }

  /// Every phrase `body` stands for, in class-value order, with whitespace normalised; empty
  /// expansions are dropped.
  func expansions(of body: String) throws -> [String] {
    try expand(body, template: body, visiting: []).map(TemplateBody.normalizedWhitespace).filter { !$0.isEmpty }
  }

  /// The expansions of `template` with its count split evenly across them.
  func phraseCounts(
    for template: CustomLanguageModelData.TemplatePhraseCountGenerator.Template
  ) throws -> [CustomLanguageModelData.PhraseCount] {
    guard template.count >= 0 else {
      throw CustomLanguageModelError.malformedTemplate(
        template: template.body, reason: "its count \(template.count) is negative")
    }
    let phrases = try expansions(of: template.body)
    guard !phrases.isEmpty else { return [] }
    let share = template.count / phrases.count
    let remainder = template.count % phrases.count
    return phrases.enumerated().map { index, phrase in
      var count = share + (index < remainder ? 1 : 0)
      if template.count > 0 { count = max(count, 1) }
      return CustomLanguageModelData.PhraseCount(phrase: phrase, count: count)
    }
  }

  /// The parsed value of class `name` for grammar building, or the error expansion would give.
  func values(ofClass name: String, template: String) throws -> [String] {
    guard let values = classes[name] else {
      throw CustomLanguageModelError.undefinedTemplateClassName(className: name, template: template)
    }
    guard !values.isEmpty else {
      throw CustomLanguageModelError.malformedTemplate(template: template, reason: "the class <\(name)> has no values")
    }
    return values
  }

  private func expand(_ text: String, template: String, visiting: [String]) throws -> [String] {
    let body = try TemplateBody(parsing: text, template: template)
    var results = [""]
    for segment in body.segments {
      let options: [String]
      switch segment {
      case .text(let literal):
        options = [literal]
      case .slot(let name):
        let values = try values(ofClass: name, template: template)
        guard !visiting.contains(name) else {
          throw CustomLanguageModelError.malformedTemplate(
            template: template, reason: "the class <\(name)> refers to itself")
        }
        options = try values.flatMap { try expand($0, template: template, visiting: visiting + [name]) }
      }
      guard results.count * options.count <= Self.maximumExpansions else {
        throw CustomLanguageModelError.malformedTemplate(
          template: template, reason: "it expands to more than \(Self.maximumExpansions) phrases")
      }
      results = results.flatMap { prefix in options.map { prefix + $0 } }
    }
    return results
  }
}
