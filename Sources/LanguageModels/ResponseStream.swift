extension LanguageModelSession {
  /// The snapshots of a response as it is generated, ending with the whole response.
  ///
  /// Iterate it for live updates, or call ``collect()`` for the final response. The content type
  /// need not be `Sendable`: the stream carries the generated content, and each snapshot's value
  /// is made from it where it is read.
  public struct ResponseStream<Content: Generable>: AsyncSequence, Sendable {
    /// The response so far.
    public struct Snapshot {
      /// The content so far: text, or a partially generated value.
      public var content: Content.PartiallyGenerated
      /// The raw content so far.
      public var rawContent: GeneratedContent
      /// How many tokens the model has generated for this response so far (not in Apple's API:
      /// what a progress display counts).
      public var tokenCount: Int = 0
    }

    /// The content generated so far and its token count, as the generating task yields it.
    struct Progress: Sendable {
      var content: GeneratedContent
      var tokenCount: Int
    }

    /// The element type: a snapshot.
    public typealias Element = Snapshot
    /// Generation errors end the sequence.
    public typealias Failure = any Error

    private let progress: AsyncThrowingStream<Progress, any Error>
    private let final: Task<Response<GeneratedContent>, any Error>

    /// Starts `produce`, which yields the content so far after each token and returns the final
    /// response's raw content and transcript entries. Before it finishes, the final content is
    /// checked to convert to `Content`, so a failure ends the iteration as well as ``collect()``.
    init(
      _ produce:
        @escaping @Sendable (AsyncThrowingStream<Progress, any Error>.Continuation) async throws -> Response<
          GeneratedContent
        >
    ) {
      let (stream, continuation) = AsyncThrowingStream.makeStream(of: Progress.self)
      progress = stream
      final = Task {
        do {
          let response = try await produce(continuation)
          _ = try Self.content(of: response.rawContent)
          continuation.finish()
          return response
        } catch {
          continuation.finish(throwing: error)
          throw error
        }
      }
    }

    /// Waits for the whole response.
    public func collect() async throws -> Response<Content> {
      let response = try await final.value
      return Response(
        content: try Self.content(of: response.rawContent), rawContent: response.rawContent,
        transcriptEntries: response.transcriptEntries)
    }

    /// The final content as `Content`, or the decoding failure.
    private static func content(of raw: GeneratedContent) throws -> Content {
      do {
        return try Content(raw)
      } catch {
        throw GenerationError.decodingFailure(.init(debugDescription: "\(Content.self): \(error)"))
      }
    }

    /// An iterator over the snapshots.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(progress: progress.makeAsyncIterator()) }

    /// Reads the generated content as it comes and makes each snapshot's value from it; content
    /// that does not yet convert to a partial value (an object whose first property has not
    /// started) is skipped.
    public struct AsyncIterator: AsyncIteratorProtocol {
      var progress: AsyncThrowingStream<Progress, any Error>.AsyncIterator

      /// The next snapshot, or nil after the last.
      public mutating func next() async throws -> Snapshot? {
        while let step = try await progress.next() {
          if let partial = try? Content.PartiallyGenerated(step.content) {
            return Snapshot(content: partial, rawContent: step.content, tokenCount: step.tokenCount)
          }
        }
        return nil
      }
    }
  }
}

extension LanguageModelSession.ResponseStream.Snapshot: Sendable where Content.PartiallyGenerated: Sendable {}
extension LanguageModelSession.ResponseStream.Snapshot: Equatable where Content.PartiallyGenerated: Equatable {}
