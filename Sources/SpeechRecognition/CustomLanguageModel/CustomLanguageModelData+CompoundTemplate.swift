import Foundation

extension CustomLanguageModelData {
  /// A group of templates built by ``TemplateInsertableBuilder``; not meant to be used directly.
  public struct CompoundTemplate: TemplateInsertable {
    private let components: [any TemplateInsertable]

    /// Groups `components` so they are inserted in order.
    public init(_ components: [any TemplateInsertable]) {
      self.components = components
    }

    /// Inserts every template of the group into `generator`.
    public func insert(generator: TemplatePhraseCountGenerator) {
      for component in components {
        component.insert(generator: generator)
      }
    }
  }
}
