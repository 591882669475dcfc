/// Runs the requests for one model one at a time, in the order they came: a local engine is one
/// context, so a request that finds it busy waits its turn instead of failing.
///
/// ```swift
/// let text = try await queue.run("qwen-0.5b") { try await backend.respond(to: request) { _ in } }
/// ```
actor OpenAIModelQueue {
  private var busy: Set<String> = []
  private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

  /// Runs `body` once every earlier request for `model` has finished.
  func run<T: Sendable>(_ model: String, _ body: @Sendable () async throws -> T) async throws -> T {
    await acquire(model)
    defer { release(model) }
    return try await body()
  }

  /// How many requests for `model` are running or waiting.
  func depth(of model: String) -> Int { (busy.contains(model) ? 1 : 0) + (waiting[model]?.count ?? 0) }

  private func acquire(_ model: String) async {
    guard busy.contains(model) else {
      busy.insert(model)
      return
    }
    await withCheckedContinuation { waiting[model, default: []].append($0) }
  }

  private func release(_ model: String) {
    if var queue = waiting[model], !queue.isEmpty {
      // The turn passes straight to the next request: the model stays busy.
      let next = queue.removeFirst()
      waiting[model] = queue.isEmpty ? nil : queue
      next.resume()
    } else {
      busy.remove(model)
    }
  }
}
