import Foundation

/// An asset made from a file's URL, as AVFoundation's is.
public final class AVURLAsset: AVAsset, @unchecked Sendable {
  /// The file.
  public let url: URL

  /// An asset for the file at `url`; nothing is read until a property is loaded. `options` are
  /// accepted for compatibility (durations here are always exact).
  public init(url: URL, options: [String: Any]? = nil) {
    self.url = url
    super.init(source: url)
  }
}
