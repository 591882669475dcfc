import Foundation
import Synchronization

/// Records the microphone into a file, as AVFoundation's recorder does for voice-memo apps.
///
/// ```swift
/// let settings: [String: Any] = [
///   AVFormatIDKey: Int(kAudioFormatMPEG4AAC), AVSampleRateKey: 12000,
///   AVNumberOfChannelsKey: 1, AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue,
/// ]
/// let recorder = try AVAudioRecorder(url: memoURL, settings: settings)
/// recorder.delegate = self
/// recorder.record()
/// ```
///
/// It records from ``AVAudioEngine/inputDevice`` (ALSA's default input unless set) through
/// ``MicrophoneCapture``, converted to the settings' rate and channel count. Linear PCM is a WAV
/// file whose header is rewritten after every buffer; a compressed format ID is encoded as it
/// names (AAC in MP4 written in fragments of a second, Apple Lossless, FLAC, Opus, ...), as
/// `AVAudioFile(forWriting:settings:)` does. Either way a recording cut short by a crash still
/// plays, up to its last second at worst. The delegate hears on the main queue when a recording
/// finishes. A failure never removes what was recorded: `record()` returns false or the
/// delegate hears `successfully: false`, and ``recordingError`` (our extension) says why.
public final class AVAudioRecorder: NSObject, @unchecked Sendable {
  /// Where the recording is written.
  public let url: URL
  /// The settings the recorder was made with.
  public let settings: [String: Any]
  /// The format of the audio recorded: the settings' rate and channels, as 16-bit integers or
  /// 32-bit floats.
  public let format: AVAudioFormat
  private let asked: AudioSettings

  private struct State {
    var writer: (any AudioFileWriter)?
    var capture: MicrophoneCapture?
    /// Signalled when the task writing the current capture has ended.
    var written: DispatchSemaphore?
    var recording = false
    /// Why the capture under way is ending: nothing (it ends by itself), a pause or a stop.
    var ending: Ending?
    /// Counts calls that start or end recording, so a delayed start can tell it was overtaken.
    var generation = 0
    var metering = false
    var unmetered: [Float] = []
    var levels: AudioLevels
    var error: (any Error)?
  }

  private enum Ending { case pause, stop }

  private let state: Mutex<State>

  /// A recorder that writes to `url` in the format `settings` give (`AVFormatIDKey`,
  /// `AVSampleRateKey`, `AVNumberOfChannelsKey`, `AVLinearPCMIsFloatKey`; encoder keys are
  /// accepted). Nothing is created until ``prepareToRecord()`` or ``record()``.
  ///
  /// - Throws: ``AudioIOError/unsupportedFormat(_:)`` when the settings lack a positive rate or
  ///   channel count or name no Core Audio format.
  public init(url: URL, settings: [String: Any]) throws {
    asked = try AudioSettings(settings, for: url)
    self.url = url
    self.settings = settings
    format = asked.fileFormat
    state = Mutex(State(levels: AudioLevels(channels: asked.channels)))
  }

  /// A recorder that writes `format`'s rate and channels to `url` as linear PCM.
  public convenience init(url: URL, format: AVAudioFormat) throws {
    try self.init(url: url, settings: format.settings)
  }

  /// Hears when a recording finishes; held weakly, called on the main queue.
  public var delegate: (any AVAudioRecorderDelegate)? {
    get { delegateLock.withLock { storedDelegate } }
    set { delegateLock.withLock { storedDelegate = newValue } }
  }
  private let delegateLock = NSLock()
  private weak var storedDelegate: (any AVAudioRecorderDelegate)?

  /// Whether the recorder is recording: ``record()`` succeeded and no pause, stop or failure
  /// came since.
  public var isRecording: Bool { state.withLock { $0.recording } }

  /// Seconds recorded so far; 0 once the recorder is stopped.
  public var currentTime: TimeInterval {
    state.withLock { state in
      state.writer.map { Double($0.framesWritten) / asked.sampleRate } ?? 0
    }
  }

  /// The recording device's clock in seconds (the system's monotonic clock), for
  /// ``record(atTime:)``.
  public var deviceCurrentTime: TimeInterval { ProcessInfo.processInfo.systemUptime }

  /// Why the last recording could not start or was cut short, if it was (our extension).
  public var recordingError: (any Error)? { state.withLock { $0.error } }

  /// Whether ``updateMeters()`` measures the audio recorded; off by default.
  public var isMeteringEnabled: Bool {
    get { state.withLock { $0.metering } }
    set { state.withLock { $0.metering = newValue } }
  }

  /// Creates (or replaces) the file, ready to record into.
  ///
  /// - Returns: Whether the file could be created; ``recordingError`` says why not.
  @discardableResult
  public func prepareToRecord() -> Bool {
    state.withLock { prepare(&$0) }
  }

  /// Opens the file unless it is open. Called with the lock held.
  private func prepare(_ state: inout State) -> Bool {
    guard state.writer == nil else { return true }
    do {
      state.writer = try asked.makeWriter(at: url)
      state.error = nil
      return true
    } catch {
      state.error = error
      return false
    }
  }

  /// Starts or resumes recording, appending to what was recorded before a ``pause()``; after a
  /// ``stop()`` a new recording replaces the file.
  ///
  /// - Returns: Whether recording started; false when the file cannot be written or the input
  ///   device cannot be opened (``recordingError`` says why).
  @discardableResult
  public func record() -> Bool {
    start(after: 0, for: nil)
  }

  /// Records for `duration` seconds, then stops and tells the delegate.
  @discardableResult
  public func record(forDuration duration: TimeInterval) -> Bool {
    start(after: 0, for: duration)
  }

  /// Starts recording when ``deviceCurrentTime`` reaches `time` (at once if it has passed).
  @discardableResult
  public func record(atTime time: TimeInterval) -> Bool {
    start(after: time - deviceCurrentTime, for: nil)
  }

  /// Starts recording at `time`, as ``record(atTime:)`` does, for `duration` seconds.
  @discardableResult
  public func record(atTime time: TimeInterval, forDuration duration: TimeInterval) -> Bool {
    start(after: time - deviceCurrentTime, for: duration)
  }

  /// Starts recording after `delay` seconds, for `duration` seconds or until stopped.
  private func start(after delay: TimeInterval, for duration: TimeInterval?) -> Bool {
    waitForWriting()
    let generation = state.withLock { state -> Int? in
      guard !state.recording, prepare(&state) else { return state.recording ? nil : -1 }
      state.generation += 1
      state.recording = true
      return state.generation
    }
    guard let generation else { return true }
    guard generation >= 0 else { return false }
    guard delay > 0 else { return beginCapture(generation: generation, duration: duration) }
    // A start in the future opens the device then, unless a pause or stop came first.
    DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
      _ = self.beginCapture(generation: generation, duration: duration)
    }
    return true
  }

  /// Opens the input device and writes what it records until it ends.
  private func beginCapture(generation: Int, duration: TimeInterval?) -> Bool {
    let started = state.withLock { state -> Result<AsyncThrowingStream<AudioBuffer, any Error>, any Error>? in
      guard state.generation == generation, state.recording else { return nil }
      do {
        let capture = try MicrophoneCapture(
          device: AVAudioEngine.inputDevice, outputFormat: asked.fileFormat.floatFormat)
        let stream = try capture.start(forDuration: duration)
        state.capture = capture
        state.ending = nil
        state.written = DispatchSemaphore(value: 0)
        return .success(stream)
      } catch {
        state.recording = false
        state.error = error
        return .failure(error)
      }
    }
    guard let started else { return true }
    guard case .success(let stream) = started else { return false }
    // A recorder let go while it records stops, as on Apple's platforms: the loop ends, and the
    // stream it drops stops the capture.
    Task.detached { [weak self] in
      var failure: (any Error)?
      do {
        for try await buffer in stream {
          guard let self else { break }
          try self.append(buffer)
        }
      } catch {
        failure = error
      }
      self?.captureEnded(failure)
    }
    return true
  }

  deinit {
    state.withLock { $0.capture }?.stop()
  }

  /// Writes `buffer` to the file and keeps it for the meters.
  private func append(_ captured: AudioBuffer) throws {
    // A muted app records silence, as on Apple's platforms.
    let buffer = AVAudioApplication.shared.heard(captured)
    try state.withLock { state in
      try state.writer?.write(buffer)
      guard state.metering else { return }
      state.unmetered += buffer.samples
      // Meters read the audio since they were last updated; a second of it is plenty.
      let most = Int(asked.sampleRate) * asked.channels
      if state.unmetered.count > most { state.unmetered.removeFirst(state.unmetered.count - most) }
    }
  }

  /// Finishes a capture that has ended: paused, stopped, or ended by itself (its duration is
  /// up, or the device failed), in which case the recording is finished and the delegate told.
  private func captureEnded(_ failure: (any Error)?) {
    let finished = state.withLock { state -> Bool? in
      defer { state.written?.signal() }
      state.capture = nil
      try? state.writer?.flush()
      if let failure { state.error = failure }
      guard state.ending != .pause else { return nil }
      try? state.writer?.close()
      state.writer = nil
      state.recording = false
      return failure == nil
    }
    guard let finished else { return }
    tellDelegateFinished(successfully: finished)
  }

  /// Tells the delegate, on the main queue, that the recording has finished.
  private func tellDelegateFinished(successfully: Bool) {
    DispatchQueue.main.async { [self] in
      delegate?.audioRecorderDidFinishRecording(self, successfully: successfully)
    }
  }

  /// Pauses recording; ``record()`` resumes it in the same file.
  public func pause() {
    end(.pause)
  }

  /// Stops recording and closes the file; the delegate hears that it finished.
  public func stop() {
    end(.stop)
  }

  private func end(_ ending: Ending) {
    let capture = state.withLock { state -> MicrophoneCapture? in
      state.generation += 1
      state.recording = false
      if state.capture == nil, ending == .stop, let writer = state.writer {
        // Paused, or never started: nothing is being written, so the file is closed here, and
        // a recording that has audio has finished.
        try? writer.close()
        state.writer = nil
        if writer.framesWritten > 0 { tellDelegateFinished(successfully: true) }
      }
      if state.capture != nil { state.ending = ending }
      return state.capture
    }
    capture?.stop()
    waitForWriting()
  }

  /// Waits, for a few seconds at most, until the task writing the last capture has written all
  /// it was given, so the file is complete when ``stop()`` or ``pause()`` returns.
  private func waitForWriting() {
    let written = state.withLock { $0.capture == nil ? nil : $0.written }
    _ = written?.wait(timeout: .now() + 5)
    // The semaphore was signalled once; leave it signalled for anyone else waiting on it.
    written?.signal()
  }

  /// Deletes the recording's file. The recorder must be stopped, as on Apple's platforms.
  ///
  /// - Returns: Whether the file was deleted; false while recording or paused, or when it is
  ///   not there.
  @discardableResult
  public func deleteRecording() -> Bool {
    state.withLock { state in
      guard !state.recording, state.writer == nil else { return false }
      do {
        try FileManager.default.removeItem(at: url)
        return true
      } catch {
        state.error = error
        return false
      }
    }
  }

  /// Measures the audio recorded since the last update, for ``averagePower(forChannel:)`` and
  /// ``peakPower(forChannel:)``; nothing changes when metering is off or no audio came.
  public func updateMeters() {
    state.withLock { state in
      guard state.metering, !state.unmetered.isEmpty else { return }
      state.levels = AudioLevels(state.unmetered[...], channels: asked.channels)
      state.unmetered = []
    }
  }

  /// The average power of channel `channelNumber` at the last ``updateMeters()``, in decibels
  /// from -160 (silence) to 0 (full scale).
  public func averagePower(forChannel channelNumber: Int) -> Float {
    state.withLock { $0.levels.average(forChannel: channelNumber) }
  }

  /// The peak power of channel `channelNumber` at the last ``updateMeters()``, in decibels from
  /// -160 (silence) to 0 (full scale).
  public func peakPower(forChannel channelNumber: Int) -> Float {
    state.withLock { $0.levels.peak(forChannel: channelNumber) }
  }
}
