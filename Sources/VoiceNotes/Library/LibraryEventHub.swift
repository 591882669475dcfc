import Foundation
import Synchronization

/// Hands every ``LibraryEvent`` to each subscriber's stream. Safe to use from any thread, so
/// engine callbacks can publish without waiting on an actor.
public final class LibraryEventHub: Sendable {
  private let subscribers = Mutex<[UUID: AsyncStream<LibraryEvent>.Continuation]>([:])

  /// A hub with no subscribers.
  public init() {}

  /// A stream of the events published from now on. A subscriber that falls far behind loses the
  /// oldest events rather than holding memory; ending the loop over the stream unsubscribes.
  public func subscribe() -> AsyncStream<LibraryEvent> {
    let id = UUID()
    let (stream, continuation) = AsyncStream.makeStream(of: LibraryEvent.self, bufferingPolicy: .bufferingNewest(512))
    continuation.onTermination = { [weak self] _ in
      _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
    }
    subscribers.withLock { $0[id] = continuation }
    return stream
  }

  /// Sends `event` to every subscriber.
  public func publish(_ event: LibraryEvent) {
    for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
  }

  /// How many streams are subscribed.
  public var subscriberCount: Int { subscribers.withLock { $0.count } }
}
