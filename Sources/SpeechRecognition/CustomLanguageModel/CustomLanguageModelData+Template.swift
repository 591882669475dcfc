import Foundation

extension CustomLanguageModelData.TemplatePhraseCountGenerator {
  /// One template: text with `<class>` slots, and the total count of its expansions.
  public struct Template: Sendable, Hashable, Codable, TemplateInsertable {
    /// The template text, for example `"Set background to <color>"`.
    public let body: String
    /// The total count shared by all expansions of the template.
    public let count: Int

    /// Creates a template from its text and total count.
    public init(_ body: String, count: Int) {
      self.body = body
      self.count = count
    }

    /// Adds this template to `generator` (the template result builder calls this).
    public func insert(generator: CustomLanguageModelData.TemplatePhraseCountGenerator) {
      generator.insert(template: body, count: count)
    }
  }
}
