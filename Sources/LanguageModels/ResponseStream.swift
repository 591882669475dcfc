extension LanguageModelSession {
  /// The snapshots of a response as it is generated, ending with the whole response.
  ///
  /// Iterate it for live updates, or call ``collect()`` for the final response.
  public struct ResponseStream<Content: Generable & Sendable>: AsyncSequence, Sendable
  where Content.PartiallyGenerated: Sendable {
    /// The response so far.
    public struct Snapshot: Sendable {
      /// The content so far: text, or a partially generated value.
      public var content: Content.PartiallyGenerated
      /// The raw content so far.
      public var rawContent: GeneratedContent
      /// How many tokens the model has generated for this response so far (not in Apple's API:
      /// what a progress display counts).
      public var tokenCount: Int = 0
    }

    /// The element type: a snapshot.
    public typealias Element = Snapshot
    /// Generation errors end the sequence.
    public typealias Failure = any Error

    private let snapshots: AsyncThrowingStream<Snapshot, any Error>
    private let final: Task<Response<Content>, any Error>

    /// Starts `produce`, which yields snapshots and returns the final response.
    init(
      _ produce:
        @escaping @Sendable (AsyncThrowingStream<Snapshot, any Error>.Continuation) async throws -> Response<
          Content
        >
    ) {
      let (stream, continuation) = AsyncThrowingStream.makeStream(of: Snapshot.self)
      snapshots = stream
      final = Task {
        do {
          let response = try await produce(continuation)
          continuation.finish()
          return response
        } catch {
          continuation.finish(throwing: error)
          throw error
        }
      }
    }

    /// Waits for the whole response.
    public func collect() async throws -> Response<Content> { try await final.value }

    /// An iterator over the snapshots.
    public func makeAsyncIterator() -> AsyncThrowingStream<Snapshot, any Error>.AsyncIterator {
      snapshots.makeAsyncIterator()
    }
  }
}

extension LanguageModelSession.ResponseStream.Snapshot: Equatable where Content.PartiallyGenerated: Equatable {}
