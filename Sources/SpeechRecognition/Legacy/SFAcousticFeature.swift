import Foundation

/// One voice measure frame by frame, as Apple's voice analytics give it.
public final class SFAcousticFeature: @unchecked Sendable {
  /// The measure in each frame, in order from the first frame of the stretch it covers.
  public let acousticFeatureValuePerFrame: [NSNumber]
  /// How long each frame is, in seconds.
  public let frameDuration: TimeInterval

  init(_ values: [Double], frameDuration: TimeInterval) {
    acousticFeatureValuePerFrame = values.map { NSNumber(value: $0) }
    self.frameDuration = frameDuration
  }
}
