import Foundation
import Synchronization

/// Plays a file or data through the speakers, as AVFoundation's player does for a voice memo.
///
/// ```swift
/// player = try AVAudioPlayer(contentsOf: memoURL)
/// player.delegate = self
/// player.play()
/// ```
///
/// The audio is decoded when the player is made (any format FFmpeg reads), so a missing or
/// damaged file throws then. Playing happens on a thread of its own through ALSA's
/// ``AVAudioEngine/outputDevice``; ``currentTime`` follows what the device has really played,
/// and setting it while playing moves there at once. ``volume``, ``pan`` and
/// ``setVolume(_:fadeDuration:)`` are heard within 20 ms; ``rate`` changes the speed but not the
/// pitch (``TimeStretcher``). Differences on Linux: the delegate hears `successfully: false` when
/// the output device fails (``playbackError``, our extension, says why).
public final class AVAudioPlayer: NSObject, @unchecked Sendable {
  /// The file played, when the player was made from one.
  public let url: URL?
  /// The encoded audio played, when the player was made from data.
  public let data: Data?
  /// The audio's format as decoded: its rate and channels, as 32-bit floats.
  public let format: AVAudioFormat
  private let audio: AudioBuffer

  private struct Fade {
    var from: Float
    var to: Float
    var start: TimeInterval
    var duration: TimeInterval
  }

  private struct State {
    /// The frame playing starts from, or has reached.
    var position = 0
    var playing = false
    /// Counts starts and stops, so a playing thread that was overtaken stops and forgets its place.
    var generation = 0
    /// Signalled when the last playing thread has let go of the device.
    var released: DispatchSemaphore?
    var volume: Float = 1
    var fade: Fade?
    var pan: Float = 0
    var rate: Float = 1
    var enableRate = false
    var numberOfLoops = 0
    var metering = false
    var levels: AudioLevels
    var error: (any Error)?

    /// The volume at `time`: where a fade has got, or the volume set.
    func volume(at time: TimeInterval) -> Float {
      guard let fade else { return volume }
      let done = min(max((time - fade.start) / fade.duration, 0), 1)
      return fade.from + (fade.to - fade.from) * Float(done)
    }
  }
  private let state: Mutex<State>

  /// A player for the audio file at `url`.
  ///
  /// - Throws: ``AudioIOError`` when the file is missing, empty, a folder, or holds no audio.
  public convenience init(contentsOf url: URL) throws {
    try self.init(decoding: AudioFile(forReading: url), url: url, data: nil)
  }

  /// A player for the audio file at `url`; the hint is not needed, the file's content says what
  /// it is.
  public convenience init(contentsOf url: URL, fileTypeHint utiString: String?) throws {
    try self.init(contentsOf: url)
  }

  /// A player for `data`, the bytes of an audio file in any format FFmpeg reads.
  ///
  /// - Throws: ``AudioIOError`` when the data holds no audio.
  public convenience init(data: Data) throws {
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("voicenotes-player-\(UUID())")
    defer { try? FileManager.default.removeItem(at: temporary) }
    do {
      try data.write(to: temporary)
    } catch {
      throw AudioIOError.writeFailed(path: temporary.path, detail: FileSystemFailure.reason(for: error))
    }
    try self.init(decoding: AudioFile(forReading: temporary), url: nil, data: data)
  }

  /// A player of `file`'s audio, decoded at its own rate and channel count.
  private init(decoding file: AudioFile, url: URL?, data: Data?) throws {
    format = file.fileFormat.floatFormat
    audio = try file.read(format: format)
    self.url = url
    self.data = data
    state = Mutex(State(levels: AudioLevels(channels: format.channels)))
  }

  /// A player for `data`; the hint is not needed.
  public convenience init(data: Data, fileTypeHint utiString: String?) throws {
    try self.init(data: data)
  }

  /// Hears when playing ends; held weakly, called on the main queue.
  public var delegate: (any AVAudioPlayerDelegate)? {
    get { delegateLock.withLock { storedDelegate } }
    set { delegateLock.withLock { storedDelegate = newValue } }
  }
  private let delegateLock = NSLock()
  private weak var storedDelegate: (any AVAudioPlayerDelegate)?

  /// The audio's length in seconds.
  public var duration: TimeInterval { Double(audio.frameLength) / format.sampleRate }

  /// The audio's channel count.
  public var numberOfChannels: Int { format.channels }

  /// The audio's format as a settings dictionary (linear PCM at its rate and channel count).
  public var settings: [String: Any] { format.settings }

  /// Whether the player is playing.
  public var isPlaying: Bool { state.withLock { $0.playing } }

  /// Why the output device could not play, if it could not (our extension).
  public var playbackError: (any Error)? { state.withLock { $0.error } }

  /// The playing position in seconds, within the audio; setting it moves there, at once when
  /// playing. It goes back to 0 when the audio has played to its end, and stays where it is
  /// on ``pause()`` and ``stop()``.
  public var currentTime: TimeInterval {
    get { state.withLock { Double($0.position) / format.sampleRate } }
    set {
      let frame = Int((min(max(newValue, 0), duration) * format.sampleRate).rounded())
      let restart = state.withLock { state -> Bool in
        state.position = frame
        guard state.playing else { return false }
        state.generation += 1
        return true
      }
      if restart { startThread(after: 0) }
    }
  }

  /// The output device's clock in seconds (the system's monotonic clock), for ``play(atTime:)``.
  public var deviceCurrentTime: TimeInterval { ProcessInfo.processInfo.systemUptime }

  /// The volume, 0 (silent) to 1 (the audio's own level).
  public var volume: Float {
    get { state.withLock { $0.volume(at: deviceCurrentTime) } }
    set {
      state.withLock {
        $0.volume = min(max(newValue, 0), 1)
        $0.fade = nil
      }
    }
  }

  /// Moves the volume to `volume` over `duration` seconds, evenly.
  public func setVolume(_ volume: Float, fadeDuration duration: TimeInterval) {
    let now = deviceCurrentTime
    state.withLock { state in
      let target = min(max(volume, 0), 1)
      let current = state.volume(at: now)
      state.volume = target
      state.fade = duration > 0 ? Fade(from: current, to: target, start: now, duration: duration) : nil
    }
  }

  /// Where stereo audio sits, -1 (left only) to 1 (right only); 0 leaves both channels as they are.
  public var pan: Float {
    get { state.withLock { $0.pan } }
    set { state.withLock { $0.pan = min(max(newValue, -1), 1) } }
  }

  /// The playing speed, 0.5 (half) to 2 (twice), at the audio's own pitch; it applies when
  /// ``enableRate`` is set, as on Apple's platforms, and a change while playing is heard at once.
  public var rate: Float {
    get { state.withLock { $0.rate } }
    set {
      let restart = state.withLock { state -> Bool in
        state.rate = min(max(newValue, 0.5), 2)
        guard state.playing, state.enableRate else { return false }
        state.generation += 1
        return true
      }
      if restart { startThread(after: 0) }
    }
  }

  /// Whether ``rate`` applies; set it before playing, as Apple asks before ``prepareToPlay()``.
  public var enableRate: Bool {
    get { state.withLock { $0.enableRate } }
    set { state.withLock { $0.enableRate = newValue } }
  }

  /// How many times the audio plays again after its first time through; a negative number plays
  /// it until stopped.
  public var numberOfLoops: Int {
    get { state.withLock { $0.numberOfLoops } }
    set { state.withLock { $0.numberOfLoops = newValue } }
  }

  /// Whether ``updateMeters()`` measures the audio playing; off by default.
  public var isMeteringEnabled: Bool {
    get { state.withLock { $0.metering } }
    set { state.withLock { $0.metering = newValue } }
  }

  /// Gets ready to play: the audio is decoded already, so this only reports that it can.
  @discardableResult
  public func prepareToPlay() -> Bool { true }

  /// Plays from ``currentTime``, on a thread of its own; returns at once.
  ///
  /// - Returns: True; a device that cannot play is reported to the delegate and in
  ///   ``playbackError``.
  @discardableResult
  public func play() -> Bool {
    play(after: 0)
  }

  /// Plays from ``currentTime`` once ``deviceCurrentTime`` reaches `time` (at once if it has passed).
  @discardableResult
  public func play(atTime time: TimeInterval) -> Bool {
    play(after: time - deviceCurrentTime)
  }

  private func play(after delay: TimeInterval) -> Bool {
    let start = state.withLock { state -> Bool in
      guard !state.playing else { return false }
      state.playing = true
      state.generation += 1
      return true
    }
    if start { startThread(after: delay) }
    return true
  }

  /// Pauses; ``play()`` goes on from here.
  public func pause() {
    state.withLock {
      $0.playing = false
      $0.generation += 1
    }
  }

  /// Stops playing; as on Apple's platforms ``currentTime`` stays where it is.
  public func stop() {
    pause()
  }

  /// Starts a thread that plays for the current generation, once the last one has let go of
  /// the device.
  private func startThread(after delay: TimeInterval) {
    let (generation, previous, released) = state.withLock { state in
      let released = DispatchSemaphore(value: 0)
      defer { state.released = released }
      return (state.generation, state.released, released)
    }
    let thread = Thread { [self] in
      _ = previous?.wait(timeout: .now() + 2)
      previous?.signal()
      if delay > 0 { Thread.sleep(forTimeInterval: delay) }
      run(generation: generation)
      released.signal()
    }
    thread.name = "AVAudioPlayer"
    thread.start()
  }

  /// Plays from the current position to the end, and again from the start as many times as
  /// the loops say, in one session of the device, while `generation` is current.
  private func run(generation: Int) {
    let current = { self.state.withLock { $0.generation == generation && $0.playing } }
    let channels = format.channels
    let period = max(Int(format.sampleRate) / 50, 1)
    var loopsLeft = state.withLock { $0.numberOfLoops }
    var cursor = state.withLock { $0.position }
    let speed = state.withLock { $0.enableRate ? Double($0.rate) : 1 }
    var stretcher = speed == 1 ? nil : TimeStretcher(rate: speed, format: format, from: cursor)
    var sent = 0
    // Where each pass began, in frames of the session and of the audio.
    var passes: [(session: Int, audio: Int)] = [(0, cursor)]
    var failure: (any Error)?
    do {
      try MicrophoneCapture.ALSAPCM.play(
        format: format, on: AVAudioEngine.outputDevice, shouldStop: { !current() },
        played: { frames in
          let pass = passes.last { $0.session <= frames } ?? passes[0]
          let position = min(pass.audio + Int(Double(frames - pass.session) * speed), audio.frameLength)
          state.withLock { state in
            if state.generation == generation { state.position = position }
          }
        },
        next: {
          while true {
            if cursor >= audio.frameLength {
              guard loopsLeft != 0, audio.frameLength > 0 else { return nil }
              if loopsLeft > 0 { loopsLeft -= 1 }
              cursor = 0
              passes.append((sent, 0))
              if speed != 1 { stretcher = TimeStretcher(rate: speed, format: format, from: 0) }
            }
            var samples: [Float]
            if var stretching = stretcher {
              guard let stretched = stretching.next(from: audio) else {
                cursor = audio.frameLength
                continue
              }
              samples = stretched
              cursor = min(stretching.position, audio.frameLength - 1)
              stretcher = stretching
            } else {
              let count = min(period, audio.frameLength - cursor)
              samples = Array(audio.samples[(cursor * channels)..<((cursor + count) * channels)])
              cursor += count
            }
            let gains = self.gains()
            for index in samples.indices { samples[index] *= gains[index % channels] }
            sent += samples.count / channels
            return samples[...]
          }
        })
    } catch {
      failure = error
    }
    let finished = state.withLock { state -> Bool in
      guard state.generation == generation, state.playing else { return false }
      state.position = 0
      state.playing = false
      state.error = failure
      return true
    }
    guard finished else { return }
    let successfully = failure == nil
    DispatchQueue.main.async { [self] in
      delegate?.audioPlayerDidFinishPlaying(self, successfully: successfully)
    }
  }

  /// Each channel's gain now: the volume (or where its fade has got) and the pan.
  private func gains() -> [Float] {
    let now = deviceCurrentTime
    return state.withLock { state in
      AVAudioPlayerNode.gains(channels: format.channels, volume: state.volume(at: now), pan: state.pan)
    }
  }

  /// Measures the audio just played (the last 50 ms before ``currentTime``), for
  /// ``averagePower(forChannel:)`` and ``peakPower(forChannel:)``; nothing changes when metering
  /// is off.
  public func updateMeters() {
    state.withLock { state in
      guard state.metering else { return }
      let end = min(state.position, audio.frameLength)
      let start = max(0, end - Int(format.sampleRate / 20))
      let channels = format.channels
      state.levels = AudioLevels(audio.samples[(start * channels)..<(end * channels)], channels: channels)
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
