import Foundation
import Synchronization

/// AVFoundation's audio engine, as speech apps use it: a tap on ``inputNode`` receives the
/// microphone while the engine runs.
///
/// ```swift
/// let engine = AVAudioEngine()
/// let input = engine.inputNode
/// input.installTap(onBus: 0, bufferSize: 4096, format: input.outputFormat(forBus: 0)) { buffer, time in
///   request.append(buffer)
/// }
/// engine.prepare()
/// try engine.start()
/// ```
///
/// On Linux there is no processing graph: the input node records through ``MicrophoneCapture``
/// (ALSA) from ``inputDevice``; an attached ``AVAudioPlayerNode`` plays through ALSA's
/// ``outputDevice``, and ``outputNode`` and ``mainMixerNode`` exist so code that connects nodes
/// compiles. `start()` throws a ``MicrophoneError`` when the device is
/// missing or busy.
public final class AVAudioEngine: @unchecked Sendable {
  private static let device = Mutex(AudioInputDevice.default)
  private static let output = Mutex("default")

  /// The capture device every engine's input node records (our extension): ALSA's default
  /// input unless set, for instance to a device from ``MicrophoneCapture/inputDevices()``.
  public static var inputDevice: AudioInputDevice {
    get { device.withLock { $0 } }
    set { device.withLock { $0 = newValue } }
  }

  /// The ALSA playback device player nodes play through (our extension): ALSA's default output
  /// unless set (`aplay -L` lists the devices).
  public static var outputDevice: String {
    get { output.withLock { $0 } }
    set { output.withLock { $0 = newValue } }
  }

  /// The microphone.
  public let inputNode = AVAudioInputNode()
  /// The speaker side (plays nothing on Linux).
  public let outputNode = AVAudioNode()
  /// The mixer in front of the output: its ``AVAudioMixerNode/outputVolume`` scales what player
  /// nodes attached to this engine play.
  public let mainMixerNode = AVAudioMixerNode()
  private let state = Mutex(false)
  private let attached = Mutex<[AVAudioNode]>([])

  /// A stopped engine.
  public init() {
    for node in [inputNode, outputNode, mainMixerNode] { node.engine = self }
  }

  /// Whether the engine has been started and not stopped since.
  public var isRunning: Bool { state.withLock { $0 } }

  /// Gets the engine ready to start (a no-op here: the device is opened by `start()`).
  public func prepare() {}

  /// Starts the engine: from now on, a tap on the input node receives the microphone.
  ///
  /// - Throws: ``MicrophoneError`` when the input device is missing, busy or records nothing
  ///   that can be converted.
  public func start() throws {
    guard !isRunning else { return }
    try inputNode.engineDidStart()
    state.withLock { $0 = true }
  }

  /// Pauses the engine; here the same as ``stop()``.
  public func pause() { stop() }

  /// Stops the engine and closes the device; taps are not called again after this returns, and
  /// attached players stop.
  public func stop() {
    inputNode.engineDidStop()
    for case let player as AVAudioPlayerNode in attached.withLock({ $0 }) { player.stop() }
    state.withLock { $0 = false }
  }

  /// Stops the engine, as resetting does on Apple's platforms to clear what the nodes hold.
  public func reset() { stop() }

  /// Keeps `node` with the engine (a player stops when the engine does); there is no graph to
  /// add it to on Linux.
  public func attach(_ node: AVAudioNode) {
    attached.withLock { nodes in if !nodes.contains(where: { $0 === node }) { nodes.append(node) } }
    node.engine = self
  }

  /// Lets go of `node`.
  public func detach(_ node: AVAudioNode) {
    attached.withLock { $0.removeAll { $0 === node } }
    if node.engine === self { node.engine = nil }
  }

  /// Accepted so code that builds a graph compiles; nodes are not connected on Linux.
  public func connect(_ source: AVAudioNode, to destination: AVAudioNode, format: AVAudioFormat?) {}

  /// Accepted, as ``connect(_:to:format:)`` is, with the buses named.
  public func connect(
    _ source: AVAudioNode, to destination: AVAudioNode, fromBus sourceBus: AVAudioNodeBus,
    toBus destinationBus: AVAudioNodeBus, format: AVAudioFormat?
  ) {}

  /// Accepted: there are no connections to break on Linux.
  public func disconnectNodeInput(_ node: AVAudioNode) {}

  /// Accepted: there are no connections to break on Linux.
  public func disconnectNodeOutput(_ node: AVAudioNode) {}
}
