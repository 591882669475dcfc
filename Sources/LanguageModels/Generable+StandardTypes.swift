import Foundation

extension String: Generable {
  /// The schema of any string.
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .string(.init())) }

  /// Creates a string from string content.
  ///
  /// - Parameter content: Content holding a string.
  public init(_ content: GeneratedContent) throws {
    guard case .string(let value) = content.kind else {
      throw GeneratedContent.ConversionError.typeMismatch(expected: "a string", found: content.kindName)
    }
    self = value
  }

  /// The string as generated content.
  public var generatedContent: GeneratedContent { GeneratedContent(kind: .string(self)) }
}

extension Bool: Generable {
  /// The schema of a Boolean.
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .boolean) }

  /// Creates a Boolean from Boolean content.
  ///
  /// - Parameter content: Content holding a Boolean.
  public init(_ content: GeneratedContent) throws {
    guard case .bool(let value) = content.kind else {
      throw GeneratedContent.ConversionError.typeMismatch(expected: "a Boolean", found: content.kindName)
    }
    self = value
  }

  /// The Boolean as generated content.
  public var generatedContent: GeneratedContent { GeneratedContent(kind: .bool(self)) }
}

extension Int: Generable {
  /// The schema of any integer.
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .integer(.init())) }

  /// Creates an integer from number content with no fractional part.
  ///
  /// - Parameter content: Content holding a whole number.
  public init(_ content: GeneratedContent) throws {
    let number = try GeneratedContent.number(in: content)
    guard number == number.rounded(), let value = Int(exactly: number) else {
      throw GeneratedContent.ConversionError.numberOutOfRange(number, type: "Int")
    }
    self = value
  }

  /// The integer as generated content.
  public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(Double(self))) }
}

extension Double: Generable {
  /// The schema of any number.
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .number(.init())) }

  /// Creates a number from number content.
  ///
  /// - Parameter content: Content holding a number.
  public init(_ content: GeneratedContent) throws {
    self = try GeneratedContent.number(in: content)
  }

  /// The number as generated content.
  public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(self)) }
}

extension Float: Generable {
  /// The schema of any number.
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .number(.init())) }

  /// Creates a number from number content.
  ///
  /// - Parameter content: Content holding a number.
  public init(_ content: GeneratedContent) throws {
    self = Float(try GeneratedContent.number(in: content))
  }

  /// The number as generated content.
  public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(Double(self))) }
}

extension Decimal: Generable {
  /// The schema of any number.
  public static var generationSchema: GenerationSchema { GenerationSchema(root: .number(.init())) }

  /// Creates a decimal from number content.
  ///
  /// - Parameter content: Content holding a number.
  public init(_ content: GeneratedContent) throws {
    let number = try GeneratedContent.number(in: content)
    self = Decimal(string: JSONWriter.numberText(number)) ?? Decimal(number)
  }

  /// The decimal as generated content.
  public var generatedContent: GeneratedContent {
    GeneratedContent(kind: .number(Double(truncating: self as NSDecimalNumber)))
  }
}

extension GeneratedContent {
  /// The number content holds, or a type mismatch.
  fileprivate static func number(in content: GeneratedContent) throws -> Double {
    guard case .number(let value) = content.kind else {
      throw ConversionError.typeMismatch(expected: "a number", found: content.kindName)
    }
    return value
  }
}

/// `Never` is generable, as Apple's is, so that generic code can name it (a tool that takes no
/// arguments of its own, a response type nobody asks for); no content converts to it.
extension Never: Generable {
  /// A structure of no properties: nothing the model writes is a `Never`.
  public static var generationSchema: GenerationSchema {
    GenerationSchema(type: Never.self, description: "Never", properties: [])
  }

  /// Always throws: no value of `Never` exists.
  public init(_ content: GeneratedContent) throws {
    throw GeneratedContent.ConversionError.typeMismatch(expected: "no value (Never)", found: content.kindName)
  }

  /// Unreachable: no value of `Never` exists to convert.
  public var generatedContent: GeneratedContent {
    switch self {}
  }
}
