import Foundation

/// A serial executor that runs its jobs on one dedicated thread.
///
/// Engine calls such as `whisper_full` block for seconds. An actor that uses this executor runs
/// them on its own thread instead of one of the few threads of Swift's cooperative pool, and the
/// actor's isolation still guarantees the engine context is never used from two places at once.
package final class EngineThread: SerialExecutor, @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []

  /// Starts the thread, named `name` for debuggers and `top -H`.
  package init(name: String) {
    let thread = Thread { [unowned self] in self.run() }
    thread.name = name
    thread.stackSize = 8 << 20
    thread.start()
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  private func run() {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: asUnownedSerialExecutor())
    }
  }
}
