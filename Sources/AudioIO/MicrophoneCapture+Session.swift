import Foundation

extension MicrophoneCapture {
  /// One run of capture: the reading thread, the open device, the converter and the stream they
  /// feed.
  ///
  /// The device handle, the converter and the frame count belong to the reading thread once
  /// ``begin()`` has started it (nothing else touches them after that); the stop request and the
  /// end of the run are guarded by `condition`. That split is what makes `@unchecked Sendable`
  /// sound here.
  final class Session: @unchecked Sendable {
    private let pcm: ALSAPCM
    private let converter: AudioConverter
    private let continuation: AsyncThrowingStream<AudioBuffer, any Error>.Continuation
    private var remainingFrames: Int?
    private let condition = NSCondition()
    private var stopRequested = false
    private var ended = false
    private var reader: pthread_t?
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Prepares a run over an open device; `frameLimit` (device frames) ends it by itself.
    init(
      pcm: ALSAPCM, converter: AudioConverter,
      continuation: AsyncThrowingStream<AudioBuffer, any Error>.Continuation, frameLimit: Int?
    ) throws(MicrophoneError) {
      var ends: [Int32] = [0, 0]
      guard pipe(&ends) == 0 else {
        let code = -errno
        throw .openFailed(device: pcm.deviceName, code: code, detail: ALSAPCM.describe(code))
      }
      for end in ends {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      }
      self.pcm = pcm
      self.converter = converter
      self.continuation = continuation
      self.remainingFrames = frameLimit.map { max($0, 0) }
      self.wakeRead = ends[0]
      self.wakeWrite = ends[1]
    }

    deinit {
      Glibc.close(wakeRead)
      Glibc.close(wakeWrite)
    }

    /// Starts the device and the reading thread.
    func begin() throws(MicrophoneError) {
      do {
        try pcm.start()
      } catch {
        pcm.close()
        markEnded()
        throw error
      }
      let thread = Thread { [self] in run() }
      thread.name = "MicrophoneCapture \(pcm.deviceName)"
      thread.start()
    }

    /// Whether the run is over: the device is closed and the stream finished or finishing.
    var hasEnded: Bool {
      condition.lock()
      defer { condition.unlock() }
      return ended
    }

    /// Asks the reading thread to deliver what the device has captured, close it and finish the
    /// stream, and waits (up to two seconds) until it has, unless called on that thread.
    func stop() {
      guard requestStop() else { return }
      condition.lock()
      let onReader = reader.map { pthread_equal($0, pthread_self()) != 0 } ?? false
      let deadline = Date(timeIntervalSinceNow: 2)
      while !onReader, !ended, condition.wait(until: deadline) {}
      condition.unlock()
    }

    /// Asks the reading thread to stop without waiting for it; returns false when the run has
    /// already ended.
    ///
    /// The stream's termination handler uses this: it may run inside a task's cancellation
    /// handler, where waiting for the reader (which may be resuming that very task) would stall.
    @discardableResult
    func requestStop() -> Bool {
      condition.lock()
      let running = !ended
      stopRequested = true
      condition.unlock()
      guard running else { return false }
      var byte: UInt8 = 1
      _ = write(wakeWrite, &byte, 1)
      return true
    }

    private var isStopRequested: Bool {
      condition.lock()
      defer { condition.unlock() }
      return stopRequested
    }

    private func markEnded() {
      condition.lock()
      ended = true
      condition.broadcast()
      condition.unlock()
    }

    /// The reading thread: wait for a period, read it, convert it, hand it on; on a stop request
    /// read what the device still holds first.
    private func run() {
      condition.lock()
      reader = pthread_self()
      condition.unlock()
      var bytes = [UInt8](repeating: 0, count: pcm.periodFrames * pcm.configuration.frameBytes)
      var failure: MicrophoneError?
      reading: while remainingFrames.map({ $0 > 0 }) ?? true {
        if isStopRequested {
          drain(&bytes)
          break
        }
        switch pcm.wait(wakingOn: wakeRead, timeoutMilliseconds: 500) {
        case .woken:
          drain(&bytes)
          break reading
        case .timedOut:
          continue
        case .ready:
          if case .failed(let error) = read(into: &bytes, upTo: pcm.periodFrames) {
            failure = error
            break reading
          }
        }
      }
      let tail = converter.finish()
      if tail.frameLength > 0 { continuation.yield(tail) }
      pcm.close()
      markEnded()
      continuation.finish(throwing: failure)
    }

    /// Reads what the device has captured so far, so stopping mid-word loses nothing.
    private func drain(_ bytes: inout [UInt8]) {
      var left = min(pcm.availableFrames(), remainingFrames ?? .max)
      while left > 0 {
        guard case .frames(let count) = read(into: &bytes, upTo: min(left, pcm.periodFrames)) else { break }
        left -= count
      }
    }

    /// Reads up to `frames` (fewer when the frame limit is near), converts them and yields them.
    private func read(into bytes: inout [UInt8], upTo frames: Int) -> ALSAPCM.ReadResult {
      let wanted = min(frames, remainingFrames ?? frames)
      let result = bytes.withUnsafeMutableBytes { pcm.read(into: $0.baseAddress!, frames: wanted) }
      guard case .frames(let count) = result else { return result }
      remainingFrames = remainingFrames.map { $0 - count }
      let configuration = pcm.configuration
      var samples: [Float] = []
      bytes.withUnsafeBytes { raw in
        configuration.sampleFormat.appendSamples(
          from: UnsafeRawBufferPointer(rebasing: raw[0..<(count * configuration.frameBytes)]), to: &samples)
      }
      let converted = converter.convert(AudioBuffer(format: configuration.format, samples: samples))
      if converted.frameLength > 0 { continuation.yield(converted) }
      return result
    }
  }
}
