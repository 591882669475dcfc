import Foundation

/// Runs `stop` on the first Ctrl-C; a second one exits at once.
func installInterruptHandler(_ stop: @escaping @Sendable () -> Void) {
  signal(SIGINT, SIG_IGN)
  let source = DispatchSource.makeSignalSource(signal: SIGINT)
  nonisolated(unsafe) var interrupted = false
  source.setEventHandler {
    if interrupted { exit(130) }
    interrupted = true
    stop()
  }
  source.resume()
  InterruptHandlerStorage.source = source
}

/// Keeps the signal source alive for the life of the process.
enum InterruptHandlerStorage {
  nonisolated(unsafe) static var source: (any DispatchSourceSignal)?
}
