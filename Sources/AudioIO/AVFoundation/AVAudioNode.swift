import Foundation

/// A node of an ``AVAudioEngine``: it has buses with formats, and a tap can be installed on a bus
/// to receive the audio passing through it.
///
/// On Linux the engine has no processing graph: the node that carries audio is the input node,
/// whose bus 0 delivers the microphone (see ``AVAudioInputNode``); taps on other nodes are kept
/// but never called.
open class AVAudioNode: @unchecked Sendable {
  /// The block a tap calls with each buffer and the time of its first frame.
  public typealias TapBlock = (AVAudioPCMBuffer, AVAudioTime) -> Void

  struct Tap: @unchecked Sendable {
    let bufferSize: AVAudioFrameCount
    let format: AVAudioFormat?
    let block: TapBlock
  }

  let lock = NSRecursiveLock()
  var tap: Tap?
  private weak var attachedEngine: AVAudioEngine?

  /// The engine the node is attached to, if any.
  public internal(set) var engine: AVAudioEngine? {
    get { lock.withLock { attachedEngine } }
    set { lock.withLock { attachedEngine = newValue } }
  }

  /// Creates a node; nodes are made by the engine.
  init() {}

  /// Calls `block` with the audio passing bus `bus`, in buffers of about `bufferSize` frames in
  /// `format` (the bus's own format when nil). Only one tap per bus, as on Apple's platforms.
  ///
  /// The block runs on a background thread, never the main one; after ``removeTap(onBus:)`` or the
  /// engine's `stop()` returns, it is not called again.
  open func installTap(
    onBus bus: AVAudioNodeBus, bufferSize: AVAudioFrameCount, format: AVAudioFormat?,
    block: @escaping TapBlock
  ) {
    lock.withLock {
      precondition(tap == nil, "a tap is already installed on bus \(bus): remove it first")
      tap = Tap(bufferSize: max(bufferSize, 1), format: format, block: block)
    }
    tapDidChange()
  }

  /// Removes the tap on `bus`; does nothing when there is none.
  open func removeTap(onBus bus: AVAudioNodeBus) {
    lock.withLock { tap = nil }
    tapDidChange()
  }

  /// The time of the node's most recent render: nil until the node has produced audio (and, for
  /// the input node, while the engine is stopped). ``AVAudioPlayerNode`` and ``AVAudioInputNode``
  /// report it; other nodes carry no audio here and always answer nil.
  open var lastRenderTime: AVAudioTime? { lock.withLock { renderTime } }

  /// The time of the last audio the node delivered, set by the node that carries it.
  var renderTime: AVAudioTime?

  /// The format of the audio leaving `bus`.
  open func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat { .speechAnalysis }

  /// The format of the audio entering `bus`.
  open func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat { outputFormat(forBus: bus) }

  /// Called after a tap is installed or removed.
  func tapDidChange() {}
}

/// `AVAudioNodeTapBlock` on Apple's platforms.
public typealias AVAudioNodeTapBlock = AVAudioNode.TapBlock
