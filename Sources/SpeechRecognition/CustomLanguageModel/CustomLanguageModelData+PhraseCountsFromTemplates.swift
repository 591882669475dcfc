import Foundation

extension CustomLanguageModelData {
  /// A set of classes and the templates that use them, written with a result builder:
  ///
  /// ```swift
  /// CustomLanguageModelData.PhraseCountsFromTemplates(classes: ["element": ["fire", "sea"]]) {
  ///   CustomLanguageModelData.TemplatePhraseCountGenerator.Template("I am <element>", count: 10_000)
  /// }
  /// ```
  ///
  /// The classes are visible only to the templates of this block.
  public struct PhraseCountsFromTemplates: DataInsertable {
    /// The classes: each name maps to the values its `<name>` slot stands for.
    public let classes: [String: [String]]
    private let templates: any TemplateInsertable

    /// Creates a set of templates sharing `classes`.
    public init(
      classes: [String: [String]],
      @TemplateInsertableBuilder builder: () -> any TemplateInsertable
    ) {
      self.classes = classes
      self.templates = builder()
    }

    /// Adds the classes and templates to `data` as one template generator.
    public func insert(data: CustomLanguageModelData) {
      let generator = TemplatePhraseCountGenerator()
      for (name, values) in classes {
        generator.define(className: name, values: values)
      }
      templates.insert(generator: generator)
      data.insert(phraseCountGenerator: generator)
    }
  }
}
