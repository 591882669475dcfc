/// A type that can be built from generated content.
///
/// `@Generable` types and their `PartiallyGenerated` counterparts conform through the macro.
public protocol ConvertibleFromGeneratedContent: SendableMetatype {
  /// Creates a value from generated content.
  ///
  /// - Parameter content: The content to convert.
  /// - Throws: ``GeneratedContent/ConversionError`` when the content does not have the type's shape.
  init(_ content: GeneratedContent) throws
}
