import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Process {
  /// Starts the process as `run()` does, but with no signal blocked in the child.
  ///
  /// On Linux a child inherits the signal mask of the thread that starts it, and Dispatch's and
  /// Swift concurrency's threads block nearly every signal: a child started from one of them
  /// ignores SIGTERM and SIGINT (swift-corelibs-foundation issue 4772), so stopping it takes
  /// SIGKILL. The calling thread's mask is cleared while the child is spawned and put back at once.
  package func runWithDefaultSignals() throws {
    var none = sigset_t()
    var previous = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    try run()
  }
}
