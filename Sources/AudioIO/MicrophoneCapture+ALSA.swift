import CALSA
import Foundation

extension MicrophoneCapture {
  /// An open ALSA capture PCM: the only code in the package that calls ALSA.
  ///
  /// It opens a device without blocking, negotiates a format capture can read, and offers the
  /// few operations the reading thread needs: start, wait (on the device and a wake-up pipe),
  /// read, and close. One thread uses a handle at a time; it is closed on ``close()`` or deinit.
  final class ALSAPCM {
    /// What was negotiated with a device, enough to open it again the same way.
    struct Configuration: Equatable, Sendable {
      /// The device's rate and channel count.
      var format: AudioFormat
      /// How the device encodes samples.
      var sampleFormat: SampleFormat
      /// The `snd_pcm_open` mode flags that limit ALSA's automatic conversions.
      var openMode: Int32

      /// Bytes in one interleaved frame.
      var frameBytes: Int { sampleFormat.bytesPerSample * format.channels }
    }

    /// Why ``wait(wakingOn:timeoutMilliseconds:)`` returned.
    enum WaitResult {
      /// The device has frames to read (or an error the next read reports).
      case ready
      /// The wake-up descriptor became readable: someone asked capture to stop.
      case woken
      /// Nothing happened before the timeout.
      case timedOut
    }

    /// What one ``read(into:frames:)`` produced.
    enum ReadResult {
      /// This many frames were read.
      case frames(Int)
      /// No frames yet, or an overrun was recovered; wait and read again.
      case noData
      /// Reading cannot go on.
      case failed(MicrophoneError)
    }

    /// The ALSA name the handle was opened with.
    let deviceName: String
    /// The negotiated format.
    let configuration: Configuration
    /// Frames per period: the size of one read.
    let periodFrames: Int
    private var pcm: OpaquePointer?
    private var descriptors: [pollfd]

    /// Opens `device` for capture with the format nearest `preferred` that the device records
    /// natively, or, when it has no sample encoding capture reads, one ALSA converts to.
    ///
    /// Native first: ALSA's automatic rate, channel and format conversions are turned off, so
    /// the device reports what it really records and ``AudioConverter`` does the resampling
    /// (better than ALSA's linear resampler).
    static func open(_ device: String, preferring preferred: AudioFormat) throws(MicrophoneError) -> ALSAPCM {
      let native = SND_PCM_NO_AUTO_RESAMPLE | SND_PCM_NO_AUTO_CHANNELS | SND_PCM_NO_AUTO_FORMAT
      do {
        return try ALSAPCM(device: device, mode: native, preferred: preferred, exactly: nil)
      } catch .unsupportedFormat {
        // Let ALSA convert the encoding (for instance from mu-law), keeping the device's own rate.
        let convertingFormat = SND_PCM_NO_AUTO_RESAMPLE | SND_PCM_NO_AUTO_CHANNELS
        return try ALSAPCM(device: device, mode: convertingFormat, preferred: preferred, exactly: nil)
      }
    }

    /// Opens `device` again with a configuration negotiated before.
    static func open(_ device: String, exactly configuration: Configuration) throws(MicrophoneError) -> ALSAPCM {
      try ALSAPCM(device: device, mode: configuration.openMode, preferred: configuration.format, exactly: configuration)
    }

    private init(
      device: String, mode: Int32, preferred: AudioFormat, exactly wanted: Configuration?
    ) throws(MicrophoneError) {
      Self.prepare()
      var opened: OpaquePointer?
      let status = snd_pcm_open(&opened, device, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK | mode)
      guard status == 0, let opened else {
        throw MicrophoneError.opening(device, code: status, detail: Self.describe(status))
      }
      do {
        let (format, sampleFormat, period) = try Self.negotiate(
          opened, device: device, preferred: preferred, exactly: wanted)
        deviceName = device
        configuration = Configuration(format: format, sampleFormat: sampleFormat, openMode: mode)
        periodFrames = period
        pcm = opened
        let count = Int(max(snd_pcm_poll_descriptors_count(opened), 0))
        descriptors = [pollfd](repeating: pollfd(), count: count)
        let filled = snd_pcm_poll_descriptors(opened, &descriptors, UInt32(count))
        descriptors.removeLast(count - Int(max(filled, 0)))
      } catch {
        snd_pcm_close(opened)
        throw error
      }
    }

    deinit {
      close()
    }

    /// Starts the device recording.
    func start() throws(MicrophoneError) {
      guard let pcm else { return }
      let status = snd_pcm_start(pcm)
      guard status == 0 else {
        throw .readFailed(device: deviceName, code: status, detail: Self.describe(status))
      }
    }

    /// Waits until the device has frames, `wake` becomes readable, or the timeout passes.
    func wait(wakingOn wake: Int32, timeoutMilliseconds: Int32) -> WaitResult {
      guard let pcm else { return .woken }
      var all = descriptors
      all.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0))
      let count = poll(&all, nfds_t(all.count), timeoutMilliseconds)
      guard count > 0 else { return count == 0 || errno == EINTR ? .timedOut : .ready }
      if all[all.count - 1].revents != 0 { return .woken }
      // Plugins may poll on helper descriptors; ALSA translates their events into the PCM's.
      var events: UInt16 = 0
      guard snd_pcm_poll_descriptors_revents(pcm, &all, UInt32(descriptors.count), &events) == 0 else {
        return .ready
      }
      return events & UInt16(POLLIN | POLLERR | POLLHUP) != 0 ? .ready : .timedOut
    }

    /// Reads up to `frames` interleaved frames into `buffer`, which must hold that many.
    ///
    /// An overrun (the reader fell behind and the device's buffer filled) or a suspend is
    /// recovered with `snd_pcm_recover` and reads go on; the frames lost in it are gone.
    func read(into buffer: UnsafeMutableRawPointer, frames: Int) -> ReadResult {
      guard let pcm else { return .noData }
      let count = snd_pcm_readi(pcm, buffer, snd_pcm_uframes_t(frames))
      if count > 0 { return .frames(count) }
      if count == 0 || count == -Int(EAGAIN) {
        guard snd_pcm_state(pcm) != SND_PCM_STATE_DISCONNECTED else {
          return .failed(.readFailed(device: deviceName, code: -ENODEV, detail: Self.describe(-ENODEV)))
        }
        return .noData
      }
      let code = Int32(truncatingIfNeeded: count)
      if snd_pcm_recover(pcm, code, 1) == 0 {
        // Recovery prepares the device again; a capture stream then needs starting.
        let restarted = snd_pcm_start(pcm)
        if restarted == 0 { return .noData }
        return .failed(.readFailed(device: deviceName, code: restarted, detail: Self.describe(restarted)))
      }
      return .failed(.readFailed(device: deviceName, code: code, detail: Self.describe(code)))
    }

    /// Frames the device has captured and not yet handed over.
    func availableFrames() -> Int {
      guard let pcm else { return 0 }
      return max(snd_pcm_avail(pcm), 0)
    }

    /// Stops the device, discarding anything unread, and closes it; later calls do nothing.
    func close() {
      guard let pcm else { return }
      snd_pcm_drop(pcm)
      snd_pcm_close(pcm)
      self.pcm = nil
    }

    /// Plays `buffer` through the playback device `device`, blocking until it has been played
    /// or `shouldStop` says to stop (checked between periods). ALSA converts the rate and
    /// channels to what the device takes.
    ///
    /// `played` is called after every period with how many of the buffer's frames the device has
    /// played so far (those written less those still queued in the device), and once more at the end.
    /// At the end of the buffer, `again` says whether to play it once more, in the same session of
    /// the device, without a gap.
    static func play(
      _ buffer: AudioBuffer, on device: String, shouldStop: () -> Bool, played: (Int) -> Void = { _ in },
      again: () -> Bool = { false }
    ) throws(AudioIOError) {
      let channels = buffer.format.channels
      let chunk = max(Int(buffer.format.sampleRate) / 50, 1)
      var frame = 0
      try play(format: buffer.format, on: device, shouldStop: shouldStop, played: played) {
        if frame >= buffer.frameLength {
          guard buffer.frameLength > 0, again() else { return nil }
          frame = 0
        }
        let count = min(chunk, buffer.frameLength - frame)
        defer { frame += count }
        return buffer.samples[(frame * channels)..<((frame + count) * channels)]
      }
    }

    /// Plays the periods `next` gives (interleaved samples of `format`, about 20 ms each, nil at
    /// the end) through the playback device `device`, as ``play(_:on:shouldStop:played:)`` does,
    /// in one session of the device, so what follows one buffer plays without a gap.
    static func play(
      format: AudioFormat, on device: String, shouldStop: () -> Bool, played: (Int) -> Void,
      next: () -> ArraySlice<Float>?
    ) throws(AudioIOError) {
      prepare()
      var opened: OpaquePointer?
      var status = snd_pcm_open(&opened, device, SND_PCM_STREAM_PLAYBACK, 0)
      guard status == 0, let pcm = opened else { throw .playbackFailed(device: device, detail: describe(status)) }
      defer { snd_pcm_close(pcm) }
      let channels = format.channels
      status = snd_pcm_set_params(
        pcm, SND_PCM_FORMAT_FLOAT_LE, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(channels),
        UInt32(format.sampleRate), 1, 100_000)
      guard status == 0 else { throw .playbackFailed(device: device, detail: describe(status)) }
      var frame = 0
      // Frames written less those the device still holds: what has come out of it.
      func playedSoFar() -> Int {
        var queued: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm, &queued) == 0 else { return frame }
        return frame - min(max(Int(queued), 0), frame)
      }
      while !shouldStop(), let period = next() {
        var offset = 0
        let count = period.count / channels
        while offset < count, !shouldStop() {
          let written = period.withUnsafeBufferPointer { samples in
            snd_pcm_writei(pcm, samples.baseAddress! + offset * channels, snd_pcm_uframes_t(count - offset))
          }
          if written < 0 {
            let recovered = snd_pcm_recover(pcm, Int32(written), 1)
            guard recovered == 0 else { throw .playbackFailed(device: device, detail: describe(written)) }
            continue
          }
          offset += Int(written)
          frame += Int(written)
        }
        played(playedSoFar())
      }
      if shouldStop() {
        let heard = playedSoFar()
        snd_pcm_drop(pcm)
        played(heard)
      } else {
        snd_pcm_drain(pcm)
        played(frame)
      }
    }

    /// The capture devices ALSA's configuration names, the default input first.
    ///
    /// Devices marked output-only are left out, and so is `null` (it records silence). `default`
    /// is included when it can be opened for capture, even if its configuration carries no hint.
    static func inputDevices() -> [AudioInputDevice] {
      prepare()
      var devices: [AudioInputDevice] = []
      var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
      if snd_device_name_hint(-1, "pcm", &hints) == 0, let hints {
        defer { snd_device_name_free_hint(hints) }
        var index = 0
        while let hint = hints[index] {
          index += 1
          guard let name = take(snd_device_name_get_hint(hint, "NAME")), name != "null",
            take(snd_device_name_get_hint(hint, "IOID")) != "Output"
          else { continue }
          let lines = (take(snd_device_name_get_hint(hint, "DESC")) ?? "").split(whereSeparator: \.isNewline)
          devices.append(AudioInputDevice(name: name, description: lines.joined(separator: ", ")))
        }
      }
      if let index = devices.firstIndex(where: \.isDefault) {
        devices.insert(devices.remove(at: index), at: 0)
      } else if defaultInputOpens() {
        devices.insert(.default, at: 0)
      }
      return devices
    }

    private static func defaultInputOpens() -> Bool {
      var probe: OpaquePointer?
      let status = snd_pcm_open(&probe, AudioInputDevice.default.name, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK)
      if status == 0, let probe { snd_pcm_close(probe) }
      return status == 0 || status == -EBUSY || status == -EAGAIN
    }

    /// Picks the sample encoding, channels, rate and period and installs them on `pcm`.
    private static func negotiate(
      _ pcm: OpaquePointer, device: String, preferred: AudioFormat, exactly wanted: Configuration?
    ) throws(MicrophoneError) -> (AudioFormat, SampleFormat, Int) {
      var allocated: OpaquePointer?
      guard snd_pcm_hw_params_malloc(&allocated) == 0, let params = allocated else {
        throw .openFailed(device: device, code: -ENOMEM, detail: describe(-ENOMEM))
      }
      defer { snd_pcm_hw_params_free(params) }
      let any = snd_pcm_hw_params_any(pcm, params)
      guard any >= 0 else {
        throw .unsupportedFormat(device: device, detail: "it has no configuration: \(describe(any))")
      }
      guard snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED) == 0 else {
        throw .unsupportedFormat(device: device, detail: "it cannot deliver interleaved frames")
      }

      let candidates = wanted.map { [$0.sampleFormat] } ?? SampleFormat.allCases
      guard
        let sampleFormat = candidates.first(where: { snd_pcm_hw_params_test_format(pcm, params, $0.alsaFormat) == 0 })
      else {
        let readable = candidates.map(\.rawValue).joined(separator: ", ")
        throw .unsupportedFormat(
          device: device, detail: "it offers \(offeredFormats(pcm, params)); capture reads \(readable)")
      }
      snd_pcm_hw_params_set_format(pcm, params, sampleFormat.alsaFormat)

      var channels = UInt32(wanted?.format.channels ?? preferred.channels)
      var rate = UInt32((wanted?.format.sampleRate ?? preferred.sampleRate).rounded())
      if wanted != nil {
        guard snd_pcm_hw_params_set_channels(pcm, params, channels) == 0,
          snd_pcm_hw_params_set_rate(pcm, params, rate, 0) == 0
        else {
          throw .unsupportedFormat(device: device, detail: "it no longer records \(channels) channels at \(rate) Hz")
        }
      } else {
        guard snd_pcm_hw_params_set_channels_near(pcm, params, &channels) == 0,
          snd_pcm_hw_params_set_rate_near(pcm, params, &rate, nil) == 0
        else {
          throw .unsupportedFormat(device: device, detail: "it accepts no channel count or rate near \(preferred)")
        }
      }
      // Periods of about 20 ms keep latency low; half a second of buffer rides out a busy machine.
      var period = snd_pcm_uframes_t(max(rate / 50, 32))
      var bufferFrames = snd_pcm_uframes_t(max(rate / 2, 256))
      snd_pcm_hw_params_set_period_size_near(pcm, params, &period, nil)
      snd_pcm_hw_params_set_buffer_size_near(pcm, params, &bufferFrames)
      let installed = snd_pcm_hw_params(pcm, params)
      guard installed == 0 else {
        throw .unsupportedFormat(
          device: device,
          detail: "it refused \(sampleFormat.rawValue), \(channels) channels at \(rate) Hz: \(describe(installed))")
      }
      snd_pcm_hw_params_get_period_size(params, &period, nil)
      guard channels > 0, rate > 0 else {
        throw .unsupportedFormat(device: device, detail: "it reports \(channels) channels at \(rate) Hz")
      }
      let format = AudioFormat(sampleRate: Double(rate), channelCount: Int(channels))
      return (format, sampleFormat, max(Int(period), 1))
    }

    /// ALSA's names for every encoding `params` still allows, for messages.
    private static func offeredFormats(_ pcm: OpaquePointer, _ params: OpaquePointer) -> String {
      var names: [String] = []
      for raw in 0...SND_PCM_FORMAT_LAST.rawValue {
        let format = snd_pcm_format_t(rawValue: raw)
        guard snd_pcm_hw_params_test_format(pcm, params, format) == 0, let name = snd_pcm_format_name(format) else {
          continue
        }
        names.append(String(cString: name))
      }
      return names.isEmpty ? "no sample format" : names.joined(separator: ", ")
    }

    private static let errorHandlerInstalled: Void = calsa_silence_errors()

    /// Keeps ALSA from printing to stderr; called before the first ALSA call.
    private static func prepare() {
      _ = errorHandlerInstalled
    }

    /// ALSA's message for a negative error number.
    static func describe<Code: BinaryInteger>(_ code: Code) -> String {
      String(cString: snd_strerror(Int32(truncatingIfNeeded: code)))
    }

    /// A string ALSA allocated, copied and freed.
    private static func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
      guard let pointer else { return nil }
      defer { free(pointer) }
      return String(cString: pointer)
    }
  }
}

extension MicrophoneCapture.SampleFormat {
  /// The ALSA constant for this encoding.
  fileprivate var alsaFormat: snd_pcm_format_t {
    switch self {
    case .float32: SND_PCM_FORMAT_FLOAT_LE
    case .int32: SND_PCM_FORMAT_S32_LE
    case .int24: SND_PCM_FORMAT_S24_LE
    case .packedInt24: SND_PCM_FORMAT_S24_3LE
    case .int16: SND_PCM_FORMAT_S16_LE
    case .unsignedInt8: SND_PCM_FORMAT_U8
    }
  }
}
