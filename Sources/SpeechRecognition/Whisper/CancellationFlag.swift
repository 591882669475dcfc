import Synchronization

/// A flag that any thread can raise and the engine's abort callback polls.
final class CancellationFlag: Sendable {
  private let raised = Atomic(false)

  /// Whether the flag has been raised.
  var isSet: Bool { raised.load(ordering: .relaxed) }

  /// Raises the flag; it stays raised.
  func set() { raised.store(true, ordering: .relaxed) }
}
