extension Array: ConvertibleToGeneratedContent where Element: ConvertibleToGeneratedContent {
  /// The array as generated content.
  public var generatedContent: GeneratedContent {
    GeneratedContent(kind: .array(map(\.generatedContent)))
  }
}

extension Array: ConvertibleFromGeneratedContent where Element: ConvertibleFromGeneratedContent {
  /// Creates an array from array content, converting every element.
  ///
  /// - Parameter content: Content holding an array.
  public init(_ content: GeneratedContent) throws {
    guard case .array(let elements) = content.kind else {
      throw GeneratedContent.ConversionError.typeMismatch(expected: "an array", found: content.kindName)
    }
    self = try elements.map { try Element($0) }
  }
}

extension Array: Generable where Element: Generable {
  /// Arrays stream as arrays of partially generated elements.
  public typealias PartiallyGenerated = [Element.PartiallyGenerated]

  /// The schema of an array of the element type.
  public static var generationSchema: GenerationSchema {
    var collector = DefinitionCollector()
    let items = collector.embed(Element.generationSchema)
    return GenerationSchema(
      root: .array(.init(items: items)), definitions: collector.definitions, issues: collector.issues)
  }

  /// The array with every element partially generated.
  public func asPartiallyGenerated() -> [Element.PartiallyGenerated] {
    map { $0.asPartiallyGenerated() }
  }
}

/// An array of generable values reads as its JSON in instructions (a list of examples, say).
extension Array: InstructionsRepresentable where Element: ConvertibleToGeneratedContent {}

/// An array of generable values reads as its JSON in a prompt.
extension Array: PromptRepresentable where Element: ConvertibleToGeneratedContent {}
