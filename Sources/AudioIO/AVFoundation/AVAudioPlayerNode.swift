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
  }

  private struct State {
    var queue: [Item] = []
    var playing = false
    var stopRequested = false
    var error: (any Error)?
  }
  private let state = Mutex(State())

  /// A player with nothing scheduled.
  public override init() {}

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

  /// Starts playing what is scheduled, and what is scheduled later, until ``stop()``.
  public func play() {
    let start = state.withLock { state -> Bool in
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
    state.withLock { $0.stopRequested = true }
  }

  /// Stops playing and forgets what is scheduled.
  public func stop() {
    state.withLock {
      $0.stopRequested = true
      $0.queue.removeAll()
    }
  }

  private func enqueue(_ item: Item) {
    state.withLock { $0.queue.append(item) }
  }

  /// Plays items until the queue is empty or a stop is asked for.
  private func run() {
    while true {
      let next = state.withLock { state -> Item? in
        guard !state.stopRequested, !state.queue.isEmpty else {
          state.playing = false
          return nil
        }
        return state.queue.removeFirst()
      }
      guard let next else { return }
      do {
        let audio = try next.audio()
        try MicrophoneCapture.ALSAPCM.play(audio, on: AVAudioEngine.outputDevice) {
          state.withLock { $0.stopRequested }
        }
      } catch {
        state.withLock { $0.error = error }
      }
      next.completion?()
    }
  }
}
