import Foundation

/// The classes of one template generator and the templates that use them, as stored in the export
/// file and compiled into the grammar.
struct TemplateGroup: Sendable, Hashable, Codable {
  /// Each class name with the values its slot stands for.
  var classes: [String: [String]] = [:]
  /// The templates, in insertion order.
  var templates: [CustomLanguageModelData.TemplatePhraseCountGenerator.Template] = []
}
