import Foundation

extension CustomLanguageModelData {
  /// The result builder of ``PhraseCountsFromTemplates/init(classes:builder:)``: lists templates,
  /// with `if`, `switch` and `for` allowed.
  @resultBuilder
  public struct TemplateInsertableBuilder {
    /// Combines the templates of a block.
    public static func buildBlock(_ components: any TemplateInsertable...) -> any TemplateInsertable {
      CompoundTemplate(components)
    }

    /// Combines the templates produced by a `for` loop.
    public static func buildArray(_ components: [any TemplateInsertable]) -> any TemplateInsertable {
      CompoundTemplate(components)
    }

    /// Supports `if` without `else`.
    public static func buildOptional(_ component: (any TemplateInsertable)?) -> any TemplateInsertable {
      CompoundTemplate(component.map { [$0] } ?? [])
    }

    /// Supports the first branch of `if`-`else` and `switch`.
    public static func buildEither(first component: any TemplateInsertable) -> any TemplateInsertable {
      component
    }

    /// Supports the second branch of `if`-`else` and `switch`.
    public static func buildEither(second component: any TemplateInsertable) -> any TemplateInsertable {
      component
    }
  }

}
