import Foundation

/// How a stretch of speech was voiced, frame by frame (every ``VoiceAnalyticsMeter/frameDuration``
/// seconds), measured from the audio itself, as Apple's voice analytics are.
///
/// A frame is voiced when its audio repeats with a period between 60 and 400 Hz; the other
/// measures are 0 in frames that are not.
public final class SFVoiceAnalytics: @unchecked Sendable {
  /// How much the period varies from one voiced frame to the next, in percent of the period.
  public let jitter: SFAcousticFeature
  /// How much the loudness varies from one voiced frame to the next, in decibels.
  public let shimmer: SFAcousticFeature
  /// The pitch of each voiced frame as the natural logarithm of its fundamental frequency over
  /// the speaker's median in the stretch: 0 at the speaker's usual pitch, above 0 higher.
  public let pitch: SFAcousticFeature
  /// How likely each frame is to be voiced speech, 0...1.
  public let voicing: SFAcousticFeature

  init(jitter: [Double], shimmer: [Double], pitch: [Double], voicing: [Double], frameDuration: TimeInterval) {
    self.jitter = SFAcousticFeature(jitter, frameDuration: frameDuration)
    self.shimmer = SFAcousticFeature(shimmer, frameDuration: frameDuration)
    self.pitch = SFAcousticFeature(pitch, frameDuration: frameDuration)
    self.voicing = SFAcousticFeature(voicing, frameDuration: frameDuration)
  }
}
