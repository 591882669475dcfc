import Foundation

extension CustomLanguageModelData {
  /// The result builder of ``CustomLanguageModelData/init(locale:identifier:version:builder:)``:
  /// lists phrase counts, templates and pronunciations, with `if`, `switch` and `for` allowed.
  @resultBuilder
  public struct DataInsertableBuilder {
    /// Combines the items of a block.
    public static func buildBlock(_ components: any DataInsertable...) -> any DataInsertable {
      CompoundDataInsertable(components: components)
    }

    /// Combines the items produced by a `for` loop.
    public static func buildArray(_ components: [any DataInsertable]) -> any DataInsertable {
      CompoundDataInsertable(components: components)
    }

    /// Supports `if` without `else`.
    public static func buildOptional(_ component: (any DataInsertable)?) -> any DataInsertable {
      CompoundDataInsertable(components: component.map { [$0] } ?? [])
    }

    /// Supports the first branch of `if`-`else` and `switch`.
    public static func buildEither(first component: any DataInsertable) -> any DataInsertable {
      component
    }

    /// Supports the second branch of `if`-`else` and `switch`.
    public static func buildEither(second component: any DataInsertable) -> any DataInsertable {
      component
    }
  }
}
