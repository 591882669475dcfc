/// A type that can be represented as generated content, for example to show the model an example
/// value in a prompt.
public protocol ConvertibleToGeneratedContent {
  /// This value as generated content.
  var generatedContent: GeneratedContent { get }
}
