/// A property of an asset or a track that is loaded asynchronously, as in `asset.load(.duration)`.
public final class AVAsyncProperty<Root, Value>: @unchecked Sendable {
  private let loader: (Root) throws -> Value

  init(_ loader: @escaping (Root) throws -> Value) {
    self.loader = loader
  }

  func load(_ root: Root) throws -> Value { try loader(root) }
}

extension AVAsyncProperty where Root: AVAsset {
  /// How long the asset lasts.
  public static var duration: AVAsyncProperty<Root, CMTime> { .init { try $0.loadedDuration() } }
  /// Whether the asset can be played.
  public static var isPlayable: AVAsyncProperty<Root, Bool> { .init { $0.isPlayable } }
  /// Whether the asset's media can be read.
  public static var isReadable: AVAsyncProperty<Root, Bool> { .init { $0.isReadable } }
  /// The asset's tracks.
  public static var tracks: AVAsyncProperty<Root, [AVAssetTrack]> { .init { try $0.loadedTracks() } }
}

extension AVAsyncProperty where Root: AVAssetTrack {
  /// When the track plays.
  public static var timeRange: AVAsyncProperty<Root, CMTimeRange> { .init { $0.timeRange } }
  /// The timescale the track counts in.
  public static var naturalTimeScale: AVAsyncProperty<Root, CMTimeScale> { .init { $0.naturalTimeScale } }
}
