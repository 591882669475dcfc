/// One track of an ``AVAsset``: here, a file's audio stream.
public final class AVAssetTrack: Sendable {
  /// The track's number in its file.
  public let trackID: Int32
  /// What kind of media it holds (`.audio`).
  public let mediaType: AVMediaType
  /// When the track plays, from the asset's start.
  public let timeRange: CMTimeRange
  /// The timescale the track counts its time in: the audio's sample rate.
  public let naturalTimeScale: CMTimeScale

  init(trackID: Int32, mediaType: AVMediaType, timeRange: CMTimeRange, naturalTimeScale: CMTimeScale) {
    self.trackID = trackID
    self.mediaType = mediaType
    self.timeRange = timeRange
    self.naturalTimeScale = naturalTimeScale
  }
}

extension AVAssetTrack: AVAsyncPropertyLoadable {}
