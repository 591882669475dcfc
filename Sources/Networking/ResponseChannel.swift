import Synchronization

/// A response's status and headers (names lowercased).
struct ResponseHead: Sendable, Equatable {
  var status: Int
  var headers: [String: String]
}

/// Hands a transfer's response from its thread to async code: the head once, then the body's
/// chunks in order, then the end (or the error that ended it). One reader at a time.
final class ResponseChannel: Sendable {
  private enum Ending {
    case open
    case finished
    case failed(HTTPClientError)
  }

  private struct State {
    var head: ResponseHead?
    var headWaiter: CheckedContinuation<Result<ResponseHead, HTTPClientError>, Never>?
    var chunks: [[UInt8]] = []
    var ending = Ending.open
    var bodyWaiter: CheckedContinuation<Result<[UInt8]?, HTTPClientError>, Never>?
  }

  private let state = Mutex(State())

  /// Starts `transfer` and waits for its response head (or the error that came first).
  func head(starting transfer: CurlTransfer) async -> Result<ResponseHead, HTTPClientError> {
    await withCheckedContinuation { continuation in
      state.withLock { $0.headWaiter = continuation }
      transfer.start()
    }
  }

  /// The next chunk of the body, nil at its end; the task's cancellation cancels `transfer`.
  func next(cancelling transfer: CurlTransfer) async -> Result<[UInt8]?, HTTPClientError> {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready: Result<[UInt8]?, HTTPClientError>? = state.withLock { state in
          if !state.chunks.isEmpty { return .success(state.chunks.removeFirst()) }
          switch state.ending {
          case .finished: return .success(nil)
          case .failed(let error): return .failure(error)
          case .open:
            state.bodyWaiter = continuation
            return nil
          }
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      transfer.cancel()
    }
  }

  // MARK: From the transfer's thread

  /// The response's status and headers arrived.
  func received(_ head: ResponseHead) {
    let waiter = state.withLock { state in
      state.head = head
      defer { state.headWaiter = nil }
      return state.headWaiter
    }
    waiter?.resume(returning: .success(head))
  }

  /// Bytes of the body arrived.
  func received(_ chunk: [UInt8]) {
    let waiter: CheckedContinuation<Result<[UInt8]?, HTTPClientError>, Never>? = state.withLock { state in
      guard let waiter = state.bodyWaiter else {
        state.chunks.append(chunk)
        return nil
      }
      state.bodyWaiter = nil
      return waiter
    }
    waiter?.resume(returning: .success(chunk))
  }

  /// The transfer ended, completely (nil) or with `error`.
  func finish(_ error: HTTPClientError?) {
    let (headWaiter, bodyWaiter) = state.withLock { state in
      state.ending = error.map { .failed($0) } ?? .finished
      defer {
        state.headWaiter = nil
        state.bodyWaiter = nil
      }
      return (state.headWaiter, state.bodyWaiter)
    }
    headWaiter?.resume(returning: .failure(error ?? .cancelled))
    if let error {
      bodyWaiter?.resume(returning: .failure(error))
    } else {
      bodyWaiter?.resume(returning: .success(nil))
    }
  }
}
