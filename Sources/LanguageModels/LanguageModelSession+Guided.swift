import Foundation
import Synchronization

extension LanguageModelSession {
  /// Answers `prompt` with a value of a `@Generable` type, every guide enforced while decoding.
  ///
  /// - Parameter includeSchemaInPrompt: describe the schema to the model in the prompt. The
  ///   grammar enforces it either way; leave it out when the instructions already show an example.
  public func respond<Content: Generable>(
    to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) async throws -> Response<Content> {
    let raw = try await respond(
      to: prompt, schema: Content.generationSchema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    do {
      return Response(
        content: try Content(raw.content), rawContent: raw.content, transcriptEntries: raw.transcriptEntries)
    } catch {
      throw GenerationError.decodingFailure(.init(debugDescription: "\(Content.self): \(error)"))
    }
  }

  /// Answers `prompt` with a value of a `@Generable` type.
  public func respond<Content: Generable>(
    to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) async throws -> Response<Content> {
    try await respond(
      to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  /// Answers `prompt` with content that follows `schema` (for schemas built at run time).
  public func respond(
    to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) async throws -> Response<GeneratedContent> {
    let turn = try await run(
      prompt: prompt, format: .schema(schema), schemaText: includeSchemaInPrompt ? schema.promptDescription() : nil,
      options: options, onText: { _ in })
    let content = try Self.decode(turn)
    return Response(content: content, rawContent: content, transcriptEntries: turn.entries)
  }

  /// Streams the answer to `prompt` as text: each snapshot holds everything generated so far.
  public func streamResponse(to prompt: Prompt, options: GenerationOptions = GenerationOptions())
    -> ResponseStream<String>
  {
    ResponseStream { continuation in
      let turn = try await self.run(prompt: prompt, format: .text, schemaText: nil, options: options) { text in
        continuation.yield(.init(content: GeneratedContent(kind: .string(text)), tokenCount: 0))
      }
      let text = GeneratedContent(kind: .string(turn.text))
      return Response(content: text, rawContent: text, transcriptEntries: turn.entries)
    }
  }

  /// Streams the answer to `prompt` as text.
  public func streamResponse(to prompt: String, options: GenerationOptions = GenerationOptions())
    -> ResponseStream<String>
  {
    streamResponse(to: Prompt(prompt), options: options)
  }

  /// Streams a `@Generable` answer: each snapshot is the partially generated value so far, with
  /// properties appearing in order as the model writes them.
  public func streamResponse<Content: Generable>(
    to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) -> ResponseStream<Content> {
    ResponseStream { continuation in
      let streamed = try await self.streamStructured(
        prompt: prompt, schema: Content.generationSchema, includeSchemaInPrompt: includeSchemaInPrompt,
        options: options
      ) { partial, tokenCount in
        continuation.yield(.init(content: partial, tokenCount: tokenCount))
      }
      continuation.yield(.init(content: streamed.content, tokenCount: streamed.tokenCount))
      return Response(content: streamed.content, rawContent: streamed.content, transcriptEntries: streamed.turn.entries)
    }
  }

  /// Streams an answer that follows `schema` (for schemas built at run time): each snapshot is the
  /// content generated so far, with properties appearing in order as the model writes them, and
  /// the last is the whole, complete content.
  public func streamResponse(
    to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) -> ResponseStream<GeneratedContent> {
    ResponseStream { continuation in
      let streamed = try await self.streamStructured(
        prompt: prompt, schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options
      ) { partial, tokenCount in
        continuation.yield(.init(content: partial, tokenCount: tokenCount))
      }
      continuation.yield(.init(content: streamed.content, tokenCount: streamed.tokenCount))
      return Response(content: streamed.content, rawContent: streamed.content, transcriptEntries: streamed.turn.entries)
    }
  }

  /// Streams a `@Generable` answer to `prompt`.
  public func streamResponse<Content: Generable>(
    to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) -> ResponseStream<Content> {
    streamResponse(to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  /// Runs one turn constrained to `schema` for a stream: after each token, `onSnapshot` gets the
  /// content parsed from the JSON written so far (incomplete, with one identifier for the whole
  /// response) and the number of tokens so far. Returns the turn, its complete content (with the
  /// same identifier) and the token count.
  private func streamStructured(
    prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool, options: GenerationOptions,
    onSnapshot: @escaping @Sendable (GeneratedContent, Int) -> Void
  ) async throws -> (turn: Turn, content: GeneratedContent, tokenCount: Int) {
    let id = GenerationID()
    let tokens = Mutex(0)
    let turn = try await run(
      prompt: prompt, format: .schema(schema), schemaText: includeSchemaInPrompt ? schema.promptDescription() : nil,
      options: options
    ) { text in
      let count = tokens.withLock { count in
        count += 1
        return count
      }
      onSnapshot(GeneratedContent(partialJSON: text, id: id), count)
    }
    var content = try Self.decode(turn)
    content.id = id
    return (turn, content, tokens.withLock { $0 })
  }

  private static func decode(_ turn: Turn) throws -> GeneratedContent {
    if turn.reachedTokenLimit {
      throw GenerationError.decodingFailure(
        .init(
          debugDescription:
            "the response reached maximumResponseTokens before the value was complete; allow more tokens"))
    }
    do {
      return try GeneratedContent(json: turn.text)
    } catch {
      throw GenerationError.decodingFailure(.init(debugDescription: "the output is not valid JSON: \(error)"))
    }
  }
}
