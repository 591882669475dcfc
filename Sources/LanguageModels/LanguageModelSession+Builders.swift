extension LanguageModelSession {
  // The remaining shapes of Apple's respond and streamResponse: a prompt written with the
  // `Prompt { }` builder, and a schema built at run time. Each forwards to the form that takes a
  // `Prompt`, so they behave the same.

  /// Answers `prompt` with content that follows `schema`.
  public func respond(
    to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) async throws -> Response<GeneratedContent> {
    try await respond(
      to: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  /// Answers the prompt the builder writes with a value of a `@Generable` type.
  public func respond<Content: Generable>(
    generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
  ) async throws -> Response<Content> {
    try await respond(
      to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  /// Answers the prompt the builder writes with content that follows `schema`.
  public func respond(
    schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
    @PromptBuilder prompt: () throws -> Prompt
  ) async throws -> Response<GeneratedContent> {
    try await respond(to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  /// Streams the answer to the prompt the builder writes, as text.
  public func streamResponse(
    options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
  ) rethrows -> ResponseStream<String> {
    streamResponse(to: try prompt(), options: options)
  }

  /// Streams a `@Generable` answer to the prompt the builder writes.
  public func streamResponse<Content: Generable>(
    generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
  ) rethrows -> ResponseStream<Content> {
    streamResponse(to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  /// Streams an answer to `prompt` that follows `schema`.
  public func streamResponse(
    to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) -> ResponseStream<GeneratedContent> {
    streamResponse(to: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  /// Streams an answer to the prompt the builder writes that follows `schema`.
  public func streamResponse(
    schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
    @PromptBuilder prompt: () throws -> Prompt
  ) rethrows -> ResponseStream<GeneratedContent> {
    streamResponse(to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }
}
