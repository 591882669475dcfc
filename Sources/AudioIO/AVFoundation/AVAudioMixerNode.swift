import Foundation

/// The engine's mixer in front of its output, with AVFoundation's volume: player nodes' audio is
/// scaled by ``outputVolume`` as it plays.
///
/// On Linux there is no graph to mix: each player node plays to the output device on its own,
/// scaled by its own volume and the engine's ``AVAudioEngine/mainMixerNode`` output volume (both
/// read when a scheduled file or buffer starts playing).
public final class AVAudioMixerNode: AVAudioNode, @unchecked Sendable {
  private var volumes = (output: Float(1), volume: Float(1), pan: Float(0))

  /// A mixer at full volume; the engine makes its own main mixer.
  public override init() {}

  /// The mixer's output volume, 0 (silent) to 1 (unchanged). Recording apps set it to 0 so the
  /// microphone is not played back.
  public var outputVolume: Float {
    get { lock.withLock { volumes.output } }
    set { lock.withLock { volumes.output = min(max(newValue, 0), 1) } }
  }

  /// The volume of this mixer's own input (kept; the main mixer's input is every player).
  public var volume: Float {
    get { lock.withLock { volumes.volume } }
    set { lock.withLock { volumes.volume = min(max(newValue, 0), 1) } }
  }

  /// The stereo position of this mixer's own input, -1 (left) to 1 (right) (kept).
  public var pan: Float {
    get { lock.withLock { volumes.pan } }
    set { lock.withLock { volumes.pan = min(max(newValue, -1), 1) } }
  }
}
