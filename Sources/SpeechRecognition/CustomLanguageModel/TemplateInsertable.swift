import Foundation

/// Something the template result builder of ``CustomLanguageModelData/PhraseCountsFromTemplates``
/// can add to a template generator: a template, or a group of templates.
public protocol TemplateInsertable {
  /// Adds this item's templates to `generator`.
  func insert(generator: CustomLanguageModelData.TemplatePhraseCountGenerator)
}
