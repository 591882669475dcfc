/// Hears how an ``AVAudioPlayer``'s playing ends, as AVFoundation's delegate does; both methods
/// have empty defaults, as Apple's optional ones.
public protocol AVAudioPlayerDelegate: AnyObject {
  /// The player reached the end of its audio (`flag` true), or the output device failed (`flag`
  /// false; the player's ``AVAudioPlayer/playbackError`` says why). Not called after
  /// ``AVAudioPlayer/stop()`` or ``AVAudioPlayer/pause()``. Called on the main queue.
  func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool)

  /// Decoding failed. Never called here: a player decodes its whole file when it is made, and
  /// throws then.
  func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?)
}

extension AVAudioPlayerDelegate {
  /// Does nothing.
  public func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {}

  /// Does nothing.
  public func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?) {}
}
