import Synchronization

/// Records from a microphone (an ALSA capture device) and delivers the audio as a stream of
/// buffers in the format speech analysis wants.
///
/// Creating a capture checks the device: it opens it, negotiates the format the device records
/// natively (its own rate, channel count and sample encoding, as near the output format as it
/// offers) and closes it again, so a missing, busy or unusable device fails here with a clear
/// ``MicrophoneError``. ``start(forDuration:)`` opens the device for real and reads it on a
/// dedicated thread (never Swift's cooperative pool); each period is converted to
/// ``outputFormat`` and yielded. ``stop()`` delivers everything captured up to that moment, closes
/// the device and finishes the stream. A capture can be started again after it stops.
///
/// ```swift
/// let microphone = try MicrophoneCapture()            // default input, 16 kHz mono out
/// let stream = try microphone.start()
/// for try await buffer in stream { analyzer.append(buffer) }   // ends after stop()
/// ```
///
/// The type is safe to share between tasks and actors. Abandoning the stream (the consuming task
/// is cancelled or stops iterating) stops capture as well.
public final class MicrophoneCapture: Sendable {
  /// The device this capture records from.
  public let device: AudioInputDevice
  /// The format of the delivered buffers (by default 16 kHz mono, what the speech analyzer reads).
  public let outputFormat: AudioFormat
  private let configuration: ALSAPCM.Configuration
  private let session = Mutex<Session?>(nil)

  /// The rate and channel count the device records at, before conversion.
  public var deviceFormat: AudioFormat { configuration.format }
  /// How the device encodes its samples.
  public var deviceSampleFormat: SampleFormat { configuration.sampleFormat }

  /// Checks `device` and negotiates the format to record in; buffers will be delivered in
  /// `outputFormat`.
  ///
  /// - Throws: ``MicrophoneError/noInputDevice(detail:)`` when the machine has no input,
  ///   ``MicrophoneError/deviceNotFound(device:)`` for an unknown name,
  ///   ``MicrophoneError/deviceBusy(device:)`` when another program holds it, and
  ///   ``MicrophoneError/unsupportedFormat(device:detail:)`` when it records in nothing capture
  ///   can convert.
  public init(device: AudioInputDevice = .default, outputFormat: AudioFormat = .speechAnalysis)
    throws(MicrophoneError)
  {
    let probe = try ALSAPCM.open(device.name, preferring: outputFormat)
    probe.close()
    self.device = device
    self.outputFormat = outputFormat
    self.configuration = probe.configuration
    _ = try Self.converter(for: device, from: configuration.format, to: outputFormat)
  }

  /// The capture devices on this machine, the default input first.
  ///
  /// Lists ALSA's capture PCMs (those not marked output-only), as `arecord -L` does, without
  /// `null`; `default` is included whenever it can be opened. Empty when there is no input.
  public static func inputDevices() -> [AudioInputDevice] {
    ALSAPCM.inputDevices()
  }

  /// Whether capture is running: started, and not yet stopped or ended.
  public var isCapturing: Bool {
    session.withLock { $0.map { !$0.hasEnded } ?? false }
  }

  /// Opens the device and starts recording; the stream yields buffers in ``outputFormat`` about
  /// every 20 ms until ``stop()``, the end of `duration`, or a read error (which it throws).
  ///
  /// - Parameter duration: Seconds to record before the stream ends by itself (exactly that many
  ///   of the device's frames); `nil` records until ``stop()``.
  /// - Throws: ``MicrophoneError/alreadyCapturing(device:)`` while a capture is running, or the
  ///   errors opening the device gives (busy, gone, format no longer offered).
  public func start(forDuration duration: Double? = nil) throws(MicrophoneError)
    -> AsyncThrowingStream<AudioBuffer, any Error>
  {
    try session.withLock { current throws(MicrophoneError) in
      if let current, !current.hasEnded { throw .alreadyCapturing(device: device.name) }
      let pcm = try ALSAPCM.open(device.name, exactly: configuration)
      let converter = try Self.converter(for: device, from: configuration.format, to: outputFormat)
      let frameLimit = duration.map { Self.frames(in: $0, at: configuration.format.sampleRate) }
      let (stream, continuation) = AsyncThrowingStream.makeStream(
        of: AudioBuffer.self, throwing: (any Error).self, bufferingPolicy: .unbounded)
      let run = try Session(pcm: pcm, converter: converter, continuation: continuation, frameLimit: frameLimit)
      continuation.onTermination = { [weak run] _ in run?.requestStop() }
      try run.begin()
      current = run
      return stream
    }
  }

  /// Stops recording: delivers every frame captured so far, closes the device and finishes the
  /// stream, returning once that is done. Does nothing when capture is not running.
  ///
  /// To stop from a task-cancellation handler, cancel the consuming task instead: the stream then
  /// stops capture itself without waiting.
  public func stop() {
    let run = session.withLock { current in
      defer { current = nil }
      return current
    }
    run?.stop()
  }

  /// Whole device frames in `seconds` (none for a negative or undefined length, no limit for an
  /// infinite one).
  private static func frames(in seconds: Double, at rate: Double) -> Int {
    guard seconds.isFinite else { return seconds == .infinity ? .max : 0 }
    return Int(max(seconds * rate, 0).rounded())
  }

  private static func converter(
    for device: AudioInputDevice, from deviceFormat: AudioFormat, to outputFormat: AudioFormat
  ) throws(MicrophoneError) -> AudioConverter {
    do {
      return try AudioConverter(from: deviceFormat, to: outputFormat)
    } catch {
      throw .unsupportedFormat(device: device.name, detail: error.errorDescription ?? "\(error)")
    }
  }
}
