extension GeneratedContent: PromptRepresentable {
  /// The content as JSON text, for a prompt or a tool's output.
  public var promptRepresentation: Prompt { return Prompt(jsonString) }
}
