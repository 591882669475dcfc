extension GeneratedContent: Generable {
  /// The schema of any JSON value.
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .any) }

  /// Creates content from content: the same value.
  ///
  /// - Parameter content: Any content.
  public init(_ content: GeneratedContent) throws {
    self = content
  }

  /// The content itself.
  public var generatedContent: GeneratedContent { self }
}
