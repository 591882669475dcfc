import Foundation

/// Runs async code to completion from libFuzzer's synchronous callback.
enum AsyncRunner {
  private final class Box<Value>: @unchecked Sendable {
    var value: Value?
  }

  /// The value `operation` returns, waiting for it on this thread.
  static func wait<Value>(_ operation: @escaping @Sendable () async -> Value) -> Value {
    let box = Box<Value>()
    let done = DispatchSemaphore(value: 0)
    Task {
      box.value = await operation()
      done.signal()
    }
    done.wait()
    return box.value!
  }
}
