import AudioIO
import Foundation

/// An advisory lock on a library, so that only one process transcribes and analyses at a time.
///
/// Held with `flock`, which the system releases when the process ends in any way, so a killed
/// process never leaves the library locked.
final class LibraryLock: @unchecked Sendable {
  private let file: URL
  private var descriptor: Int32 = -1
  private var depth = 0
  private let guardLock = NSLock()

  init(file: URL) { self.file = file }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Takes the lock, waiting for another process to release it unless `wait` is false.
  /// Returns whether the lock is now held.
  @discardableResult
  func acquire(wait: Bool = true) throws -> Bool {
    guardLock.lock()
    defer { guardLock.unlock() }
    if depth > 0 {
      depth += 1
      return true
    }
    if descriptor < 0 {
      descriptor = open(file.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        throw PipelineError.lockFailed(path: file.path, detail: String(cString: strerror(errno)))
      }
    }
    guard flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) == 0 else {
      if errno == EWOULDBLOCK { return false }
      throw PipelineError.lockFailed(path: file.path, detail: String(cString: strerror(errno)))
    }
    depth = 1
    return true
  }

  /// A lock on `file`, taken (waiting for another process to release it), for a short edit.
  /// When it cannot be taken, throws what `failure` makes of the system's reason, so that each
  /// caller reports it in its own words.
  static func held<Failure: Error>(at file: URL, orThrow failure: (String) -> Failure) throws(Failure) -> LibraryLock {
    let lock = LibraryLock(file: file)
    do {
      try lock.acquire()
    } catch {
      let detail =
        if case .lockFailed(_, let detail) = error as? PipelineError { detail } else {
          FileSystemFailure.reason(for: error)
        }
      throw failure(detail)
    }
    return lock
  }

  /// Releases one acquisition; the lock is free when every acquisition is released.
  func release() {
    guardLock.lock()
    defer { guardLock.unlock() }
    guard depth > 0 else { return }
    depth -= 1
    if depth == 0 { flock(descriptor, LOCK_UN) }
  }
}
