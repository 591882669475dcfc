import LanguageModels
import Synchronization

/// A backend that lets a real model answer, then holds the reply until the test opens its gate,
/// so a test can act while a request is certainly still running, however fast the machine.
final class HeldBackend: LanguageModelBackend {
  let inner: any LanguageModelBackend
  private let state = Mutex<(reached: Bool, waiters: [CheckedContinuation<Void, Never>], open: Bool)>(
    (false, [], false))

  init(_ inner: any LanguageModelBackend) { self.inner = inner }

  var displayName: String { inner.displayName }
  var availability: SystemLanguageModel.Availability { inner.availability }
  var unavailabilityExplanation: String? { inner.unavailabilityExplanation }
  func contextSize() async throws -> Int { try await inner.contextSize() }
  func tokenCount(for text: String) async throws -> Int { try await inner.tokenCount(for: text) }
  func prewarm(_ request: LanguageModelRequest) async { await inner.prewarm(request) }

  func respond(to request: LanguageModelRequest, onText: @escaping @Sendable (String) -> Void) async throws
    -> LanguageModelReply
  {
    let reply = try await inner.respond(to: request, onText: onText)
    await withCheckedContinuation { continuation in
      let resumeNow = state.withLock { state -> Bool in
        state.reached = true
        if state.open { return true }
        state.waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
    return reply
  }

  /// Whether a reply is being held (or was, once the gate opened).
  var hasReply: Bool { state.withLock { $0.reached } }

  /// Lets every held reply, and every later one, through.
  func open() {
    let waiters = state.withLock { state in
      state.open = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
