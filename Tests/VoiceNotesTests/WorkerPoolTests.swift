import Synchronization
import Testing
import VoiceNotes

@Suite("Worker pool")
struct WorkerPoolTests {
  struct Failure: Error {}

  @Test("a job that fails on one worker runs on another, each worker tried once")
  func retriesOnAnotherWorker() async throws {
    let pool = WorkerPool(["down", "up"])
    let tried = Mutex<[String]>([])
    let result = try await pool.run { worker in
      tried.withLock { $0.append(worker) }
      if worker == "down" { throw Failure() }
      return worker
    }
    #expect(result == "up")
    #expect(tried.withLock { $0 } == ["down", "up"])

    let all = Mutex(0)
    await #expect(throws: Failure.self) {
      try await pool.run { _ -> Int in
        all.withLock { $0 += 1 }
        throw Failure()
      }
    }
    #expect(all.withLock { $0 } == 2)
  }

  @Test("a failure that is the job's own is not tried elsewhere")
  func jobFailureIsNotRetried() async throws {
    let pool = WorkerPool([1, 2, 3])
    let attempts = Mutex(0)
    let isRetryable: @Sendable (any Error) -> Bool = { !($0 is Failure) }
    await #expect(throws: Failure.self) {
      try await pool.run(isRetryable: isRetryable) { _ -> Int in
        attempts.withLock { $0 += 1 }
        throw Failure()
      }
    }
    #expect(attempts.withLock { $0 } == 1)
  }

  /// Counts the jobs running at once and the jobs each worker ran.
  actor Tracker {
    var now = 0
    var most = 0
    var used: [String: Int] = [:]
    func start(_ worker: String) {
      now += 1
      most = max(most, now)
      used[worker, default: 0] += 1
    }
    func end() { now -= 1 }
  }

  @Test("no more jobs run at once than there are workers, and every job runs")
  func boundsConcurrency() async throws {
    let pool = WorkerPool(["a", "b"])
    let tracker = Tracker()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          try await pool.run { worker in
            await tracker.start(worker)
            try await Task.sleep(for: .milliseconds(20))
            await tracker.end()
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(await tracker.most == 2)
    #expect(await tracker.used.values.reduce(0, +) == 8)
    #expect(await tracker.used.keys.sorted() == ["a", "b"])
  }
}
