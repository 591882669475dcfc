import Foundation
import Synchronization

/// Plays scheduled files and buffers through the machine's speakers, as AVFoundation's player
/// node does once attached to an engine.
///
/// On Linux the engine has no graph: `attach` and `connect` are accepted, and ``play()`` plays
/// what was scheduled, in order, through ALSA's output device ``AVAudioEngine/outputDevice`` on a
/// background thread, calling each item's completion handler once it has been played back.
/// A device that cannot play is reported in ``playbackError`` (our extension) and the
/// completion handlers still run.
public final class AVAudioPlayerNode: AVAudioNode, @unchecked Sendable {
  /// When a completion handler is called.
  public enum CompletionCallbackType: Int, Sendable {
    /// Once the player has read the data.
    case dataConsumed = 0
    /// Once the data has been rendered.
    case dataRendered = 1
    /// Once the data has been played back (how every handler is called here).
    case dataPlayedBack = 2
  }

  private struct Item: @unchecked Sendable {
    let audio: () throws -> AudioBuffer
    let completion: (() -> Void)?
    /// Whether the item plays again and again until a buffer scheduled to interrupt it, or stop().
    var loops = false
  }

  /// The last moment of the node's timeline that came out of the device.
  private struct Render {
    /// Seconds of audio the node has played since it was made.
    var seconds: Double
    /// The rate of the audio playing then.
    var rate: Double
    /// The host clock when the device reported it.
    var hostTime: UInt64
  }

  private struct State {
    var queue: [Item] = []
    /// Whether an item is being played (between taking it from the queue and its completion).
    var itemPlaying = false
    /// Whether the item playing is to stop now (a buffer scheduled with `.interrupts`).
    var interruptNow = false
    /// Whether a looping item is to end with its current pass (`.interruptsAtLoop`).
    var interruptAtLoop = false
    var playing = false
    var stopRequested = false
    var error: (any Error)?
    /// Seconds played through this node in all, its timeline (Apple's node time).
    var renderedSeconds: Double = 0
    var lastRender: Render?
    /// Between ``play()`` and ``stop()`` or ``pause()``: when the player's timeline is defined.
    var timelineRunning = false
    /// Whether the next ``play()`` starts the player's timeline at zero (until the first play, and after a stop).
    var timelineRestarts = true
    /// The node time, in seconds, at which the player's timeline is zero.
    var playerStartSeconds: Double = 0
    var volume: Float = 1
    var pan: Float = 0
  }
  private let state = Mutex(State())

  /// A player with nothing scheduled.
  public override init() {}

  /// The player's volume, 0 (silent) to 1 (unchanged), applied with the engine's main mixer's
  /// output volume when a scheduled file or buffer starts playing.
  public var volume: Float {
    get { state.withLock { $0.volume } }
    set { state.withLock { $0.volume = min(max(newValue, 0), 1) } }
  }

  /// Where stereo audio sits, -1 (left only) to 1 (right only); 0 leaves both channels as they
  /// are. Mono audio is not moved.
  public var pan: Float {
    get { state.withLock { $0.pan } }
    set { state.withLock { $0.pan = min(max(newValue, -1), 1) } }
  }

  /// `audio` at `volume`, with its two channels weighted by `pan` when it is stereo.
  static func mixed(_ audio: AudioBuffer, volume: Float, pan: Float) -> AudioBuffer {
    guard volume != 1 || (pan != 0 && audio.format.channels == 2) else { return audio }
    var mixed = audio
    let channels = audio.format.channels
    let gains = gains(channels: channels, volume: volume, pan: pan)
    for index in mixed.samples.indices { mixed.samples[index] *= gains[index % channels] }
    return mixed
  }

  /// Each channel's gain at `volume` and `pan`: the two channels of stereo audio are weighted by
  /// `pan`, other layouts get `volume` alone.
  static func gains(channels: Int, volume: Float, pan: Float) -> [Float] {
    channels == 2 ? [volume * min(1, 1 - pan), volume * min(1, 1 + pan)] : Array(repeating: volume, count: channels)
  }

  /// Whether ``play()`` was called and the player has not been stopped or run out of audio.
  public var isPlaying: Bool { state.withLock { $0.playing } }

  /// Why the last item could not be played, if it could not (our extension).
  public var playbackError: (any Error)? { state.withLock { $0.error } }

  /// Schedules the whole of `file`; `when` is accepted but items play in order, one after another.
  public func scheduleFile(
    _ file: AVAudioFile, at when: AVAudioTime?, completionCallbackType: CompletionCallbackType,
    completionHandler: (@Sendable (CompletionCallbackType) -> Void)? = nil
  ) {
    let url = file.url
    let format = file.processingFormat
    enqueue(
      Item(
        audio: { try AudioFile(forReading: url).read(format: format) },
        completion: completionHandler.map { handler in { handler(completionCallbackType) } }))
  }

  /// Schedules the whole of `file`, calling `completionHandler` once it has been played.
  public func scheduleFile(
    _ file: AVAudioFile, at when: AVAudioTime?, completionHandler: (@Sendable () -> Void)? = nil
  ) {
    scheduleFile(file, at: when, completionCallbackType: .dataPlayedBack) { _ in completionHandler?() }
  }

  /// Schedules `buffer`'s frames, calling `completionHandler` once they have been played.
  public func scheduleBuffer(_ buffer: AVAudioPCMBuffer, completionHandler: (@Sendable () -> Void)? = nil) {
    let audio = buffer.audioBuffer
    enqueue(Item(audio: { audio }, completion: completionHandler))
  }

  /// Schedules `buffer`'s frames with `options`: `.loops` plays them again and again until a
  /// buffer scheduled with `.interrupts` or `.interruptsAtLoop` takes over, or ``stop()``;
  /// `.interrupts` drops what is scheduled and stops what is playing at once;
  /// `.interruptsAtLoop` lets a looping buffer finish its pass first. `when` is accepted, and
  /// items play in order. A loop's passes follow each other without a gap, in one session of the
  /// device; the completion handler of a looping buffer runs once it is interrupted.
  public func scheduleBuffer(
    _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
    completionHandler: (@Sendable () -> Void)? = nil
  ) {
    let audio = buffer.audioBuffer
    var item = Item(audio: { audio }, completion: completionHandler)
    item.loops = options.contains(.loops)
    let dropped = state.withLock { state -> [Item] in
      var dropped: [Item] = []
      if options.contains(.interrupts) || options.contains(.interruptsAtLoop) {
        dropped = state.queue
        state.queue.removeAll()
        if state.itemPlaying {
          if options.contains(.interrupts) { state.interruptNow = true } else { state.interruptAtLoop = true }
        }
      }
      state.queue.append(item)
      return dropped
    }
    // What an interruption drops is done with, as far as its handlers know.
    for item in dropped { item.completion?() }
  }

  /// Schedules `buffer` as ``scheduleBuffer(_:at:options:completionHandler:)`` does, telling
  /// `completionHandler` which moment it was called at (here always once played back).
  public func scheduleBuffer(
    _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
    completionCallbackType: CompletionCallbackType,
    completionHandler: (@Sendable (CompletionCallbackType) -> Void)? = nil
  ) {
    scheduleBuffer(buffer, at: when, options: options) { completionHandler?(completionCallbackType) }
  }

  /// Schedules `buffer`, telling `completionHandler` which moment it was called at.
  public func scheduleBuffer(
    _ buffer: AVAudioPCMBuffer, completionCallbackType: CompletionCallbackType,
    completionHandler: (@Sendable (CompletionCallbackType) -> Void)? = nil
  ) {
    scheduleBuffer(
      buffer, at: nil, options: [], completionCallbackType: completionCallbackType, completionHandler: completionHandler
    )
  }

  /// Schedules `frameCount` frames of `file` from `startingFrame` on (fewer at its end), as a
  /// player does to start from a position (a word tapped in a transcript).
  public func scheduleSegment(
    _ file: AVAudioFile, startingFrame: AVAudioFramePosition, frameCount: AVAudioFrameCount, at when: AVAudioTime?,
    completionHandler: (@Sendable () -> Void)? = nil
  ) {
    let url = file.url
    let format = file.processingFormat
    let start = Int(max(startingFrame, 0))
    let count = Int(frameCount)
    enqueue(
      Item(
        audio: {
          let whole = try AudioFile(forReading: url).read(format: format)
          let first = min(start, whole.frameLength)
          return whole.frames(first..<min(first + count, whole.frameLength))
        }, completion: completionHandler))
  }

  /// Schedules a segment of `file` as ``scheduleSegment(_:startingFrame:frameCount:at:completionHandler:)``
  /// does, telling `completionHandler` which moment it was called at.
  public func scheduleSegment(
    _ file: AVAudioFile, startingFrame: AVAudioFramePosition, frameCount: AVAudioFrameCount, at when: AVAudioTime?,
    completionCallbackType: CompletionCallbackType,
    completionHandler: (@Sendable (CompletionCallbackType) -> Void)? = nil
  ) {
    scheduleSegment(file, startingFrame: startingFrame, frameCount: frameCount, at: when) {
      completionHandler?(completionCallbackType)
    }
  }

  /// The time of the last audio the node played: its sample time counts the frames played
  /// through this node in all (at the rate of the audio then playing), its host time is when the
  /// device reported them. Nil until something has been played.
  public override var lastRenderTime: AVAudioTime? {
    state.withLock { state in
      state.lastRender.map {
        AVAudioTime(
          hostTime: $0.hostTime, sampleTime: AVAudioFramePosition(($0.seconds * $0.rate).rounded()), atRate: $0.rate)
      }
    }
  }

  /// Converts `nodeTime` (such as ``lastRenderTime``) to the player's timeline, which starts at
  /// zero when ``play()`` is called after the player was made or stopped, and does not advance
  /// while paused. Nil when the player is not playing, as on Apple's platforms.
  ///
  /// A node time with only a host time is placed by the host clock relative to the last render.
  public func playerTime(forNodeTime nodeTime: AVAudioTime) -> AVAudioTime? {
    state.withLock { state -> AVAudioTime? in
      guard state.timelineRunning else { return nil }
      let seconds: Double
      if nodeTime.isSampleTimeValid, nodeTime.sampleRate > 0 {
        seconds = Double(nodeTime.sampleTime) / nodeTime.sampleRate
      } else if nodeTime.isHostTimeValid, let last = state.lastRender {
        seconds = last.seconds + (Double(nodeTime.hostTime) - Double(last.hostTime)) / 1e9
      } else {
        return nil
      }
      let rate = nodeTime.isSampleTimeValid && nodeTime.sampleRate > 0 ? nodeTime.sampleRate : state.lastRender?.rate
      guard let rate else { return nil }
      let sampleTime = AVAudioFramePosition(((seconds - state.playerStartSeconds) * rate).rounded())
      if nodeTime.isHostTimeValid {
        return AVAudioTime(hostTime: nodeTime.hostTime, sampleTime: sampleTime, atRate: rate)
      }
      guard let last = state.lastRender else { return AVAudioTime(sampleTime: sampleTime, atRate: rate) }
      let host = Double(last.hostTime) + (seconds - last.seconds) * 1e9
      return AVAudioTime(hostTime: UInt64(max(host, 0)), sampleTime: sampleTime, atRate: rate)
    }
  }

  /// Starts playing what is scheduled, and what is scheduled later, until ``stop()``.
  public func play() {
    let start = state.withLock { state -> Bool in
      if !state.timelineRunning {
        state.timelineRunning = true
        if state.timelineRestarts { state.playerStartSeconds = state.renderedSeconds }
        state.timelineRestarts = false
      }
      guard !state.playing else { return false }
      state.playing = true
      state.stopRequested = false
      return true
    }
    guard start else { return }
    let thread = Thread { [weak self] in self?.run() }
    thread.name = "AVAudioPlayerNode"
    thread.start()
  }

  /// Pauses; here the same as ``stop()``, except that what is scheduled stays scheduled.
  public func pause() {
    state.withLock {
      $0.stopRequested = true
      $0.timelineRunning = false
    }
  }

  /// Stops playing and forgets what is scheduled; the next ``play()`` starts the player's
  /// timeline at zero again.
  public func stop() {
    state.withLock {
      $0.stopRequested = true
      $0.queue.removeAll()
      $0.timelineRunning = false
      $0.timelineRestarts = true
    }
  }

  private func enqueue(_ item: Item) {
    state.withLock { $0.queue.append(item) }
  }

  /// Plays items until the queue is empty or a stop is asked for; a looping item plays on until
  /// something interrupts it.
  private func run() {
    while true {
      let next = state.withLock { state -> Item? in
        guard !state.stopRequested, !state.queue.isEmpty else {
          state.playing = false
          return nil
        }
        state.itemPlaying = true
        return state.queue.removeFirst()
      }
      guard let next else { return }
      do {
        let (volume, pan) = state.withLock { ($0.volume, $0.pan) }
        let audio = Self.mixed(
          try next.audio(), volume: volume * (engine?.mainMixerNode.outputVolume ?? 1), pan: pan)
        let rate = audio.format.sampleRate
        let start = state.withLock { $0.renderedSeconds }
        // A looping item plays pass after pass in one session of the device, without a gap,
        // until it is interrupted (at once, or at the end of a pass) or the player stops.
        try MicrophoneCapture.ALSAPCM.play(audio, on: AVAudioEngine.outputDevice) {
          state.withLock { $0.stopRequested || $0.interruptNow }
        } played: { frames in
          // The node's timeline advances by what the device has really played.
          let now = AVAudioTime.now
          state.withLock { state in
            let seconds = max(state.renderedSeconds, start + Double(frames) / rate)
            state.renderedSeconds = seconds
            state.lastRender = Render(seconds: seconds, rate: rate, hostTime: now)
          }
        } again: {
          next.loops && !state.withLock { $0.interruptAtLoop }
        }
      } catch {
        state.withLock { $0.error = error }
      }
      state.withLock { state in
        state.itemPlaying = false
        state.interruptNow = false
        state.interruptAtLoop = false
      }
      next.completion?()
    }
  }
}
