extension Optional: ConvertibleToGeneratedContent where Wrapped: ConvertibleToGeneratedContent {
  /// The wrapped value's content, or `null`.
  public var generatedContent: GeneratedContent {
    self?.generatedContent ?? GeneratedContent(kind: .null)
  }
}

extension Optional: ConvertibleFromGeneratedContent where Wrapped: ConvertibleFromGeneratedContent {
  /// Creates `nil` from `null` content, and the wrapped value from anything else.
  ///
  /// - Parameter content: Content holding `null` or a wrapped value.
  public init(_ content: GeneratedContent) throws {
    if case .null = content.kind {
      self = nil
    } else {
      self = try Wrapped(content)
    }
  }
}

extension Optional: Generable where Wrapped: Generable {
  /// Optionals stream as the wrapped type's partially generated counterpart.
  public typealias PartiallyGenerated = Wrapped.PartiallyGenerated?

  /// The wrapped type's schema; a property of optional type may be left out.
  public static var generationSchema: GenerationSchema { Wrapped.generationSchema }

  /// The wrapped value partially generated, or `nil`.
  public func asPartiallyGenerated() -> Wrapped.PartiallyGenerated? {
    map { $0.asPartiallyGenerated() }
  }
}

/// An optional generable value reads as its JSON (or `null`) in instructions.
extension Optional: InstructionsRepresentable where Wrapped: ConvertibleToGeneratedContent {}

/// An optional generable value reads as its JSON (or `null`) in a prompt.
extension Optional: PromptRepresentable where Wrapped: ConvertibleToGeneratedContent {}
