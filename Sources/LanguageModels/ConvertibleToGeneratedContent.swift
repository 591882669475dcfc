/// A type that can be represented as generated content, for example to show the model an example
/// value in a prompt.
///
/// Such values can appear in an `Instructions { }` or `Prompt { }` builder, as on Apple's
/// platforms: they are written into the text as the JSON the model would generate for them.
public protocol ConvertibleToGeneratedContent: InstructionsRepresentable, PromptRepresentable {
  /// This value as generated content.
  var generatedContent: GeneratedContent { get }
}

extension ConvertibleToGeneratedContent {
  /// The value as JSON text, for instructions (an example of the output, say).
  public var instructionsRepresentation: Instructions { return Instructions(generatedContent.jsonString) }

  /// The value as JSON text, for a prompt.
  public var promptRepresentation: Prompt { return Prompt(generatedContent.jsonString) }
}
