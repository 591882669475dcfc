/// A set of interchangeable workers (the local engine, or servers that do the same job) that
/// hands each job to a free one and, when a worker fails, tries the job again on another.
///
/// Jobs wait while every worker is busy, so a pool of two servers runs two jobs at once and no
/// more. A job that fails on one worker runs on the next it has not tried, until one succeeds or
/// each has failed (then the last error is thrown), unless `isRetryable` says the failure is the
/// job's own (unreadable audio, nothing said), which no other worker would fix.
public actor WorkerPool<Worker: Sendable> {
  /// The workers, in the order they are preferred when several are free.
  public nonisolated let workers: [Worker]
  private var busy: Set<Int> = []
  private var waiting: [CheckedContinuation<Void, Never>] = []

  /// A pool of `workers`; it must hold at least one.
  public init(_ workers: [Worker]) {
    precondition(!workers.isEmpty, "a worker pool needs a worker")
    self.workers = workers
  }

  /// Runs `job` on a free worker, waiting for one, and on another worker when it fails there.
  ///
  /// - Parameters:
  ///   - isRetryable: whether a failure may be the worker's rather than the job's; by default
  ///     every failure but cancellation is tried elsewhere.
  ///   - onRetry: told of each failure that sends the job to another worker.
  public func run<Result: Sendable>(
    isRetryable: @Sendable (any Error) -> Bool = { !($0 is CancellationError) },
    onRetry: @Sendable (Worker, any Error) -> Void = { _, _ in },
    _ job: @Sendable (Worker) async throws -> Result
  ) async throws -> Result {
    var tried: Set<Int> = []
    while true {
      let index = await acquire(avoiding: tried)
      let worker = workers[index]
      do {
        let result = try await job(worker)
        release(index)
        return result
      } catch {
        release(index)
        tried.insert(index)
        guard isRetryable(error), tried.count < workers.count, !Task.isCancelled else { throw error }
        onRetry(worker, error)
      }
    }
  }

  /// The index of a free worker not in `tried`, marked busy; waits while there is none.
  private func acquire(avoiding tried: Set<Int>) async -> Int {
    while true {
      let free = workers.indices.filter { !busy.contains($0) }
      if let index = free.first(where: { !tried.contains($0) }) {
        busy.insert(index)
        return index
      }
      await withCheckedContinuation { waiting.append($0) }
    }
  }

  private func release(_ index: Int) {
    busy.remove(index)
    let woken = waiting
    waiting.removeAll()
    for continuation in woken { continuation.resume() }
  }
}
