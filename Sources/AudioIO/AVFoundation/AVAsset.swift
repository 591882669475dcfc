import Foundation

/// A piece of timed media, as AVFoundation's asset is for the apps that list recordings with
/// their durations: here an audio file, probed (not decoded) by FFmpeg when a property is first
/// loaded.
///
/// ```swift
/// let asset = AVURLAsset(url: memoURL)
/// let duration = try await asset.load(.duration)
/// print(CMTimeGetSeconds(duration))
/// ```
///
/// ``AVURLAsset`` is the kind to make; a file that cannot be read throws from `load`, and the
/// older synchronous properties give zero, false or nothing for it.
open class AVAsset: @unchecked Sendable {
  private let source: URL
  private let probe = NSLock()
  private var probed: Result<AudioFile, AudioIOError>?

  init(source: URL) {
    self.source = source
  }

  /// The file's header, read once.
  func audioFile() throws(AudioIOError) -> AudioFile {
    let result = probe.withLock {
      if let probed { return probed }
      let result = Result { () throws(AudioIOError) in try AudioFile(forReading: source) }
      probed = result
      return result
    }
    return try result.get()
  }

  /// How long the audio lasts, in frames at its sample rate; zero when the file cannot be read
  /// (AVFoundation's older synchronous form; `load(.duration)` says why).
  public var duration: CMTime { (try? loadedDuration()) ?? .zero }

  /// Whether the file can be played: it holds audio that FFmpeg decodes.
  public var isPlayable: Bool { (try? audioFile()) != nil }

  /// Whether the file's audio can be read.
  public var isReadable: Bool { isPlayable }

  /// The file's tracks: its audio stream, or none when the file cannot be read.
  public var tracks: [AVAssetTrack] { (try? loadedTracks()) ?? [] }

  func loadedDuration() throws(AudioIOError) -> CMTime {
    let file = try audioFile()
    let rate = file.fileFormat.sampleRate
    return rate > 0 && rate <= Double(Int32.max)
      ? CMTime(value: file.length, timescale: CMTimeScale(rate))
      : CMTime(seconds: file.duration, preferredTimescale: 600)
  }

  func loadedTracks() throws(AudioIOError) -> [AVAssetTrack] {
    let file = try audioFile()
    return [
      AVAssetTrack(
        trackID: 1, mediaType: .audio, timeRange: CMTimeRange(start: .zero, duration: try loadedDuration()),
        naturalTimeScale: CMTimeScale(file.fileFormat.sampleRate))
    ]
  }

  /// The tracks of `mediaType`: the audio track for `.audio`, none for other kinds.
  ///
  /// - Throws: ``AudioIOError`` when the file cannot be read.
  public func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVAssetTrack] {
    try loadedTracks().filter { $0.mediaType == mediaType }
  }
}

extension AVAsset: AVAsyncPropertyLoadable {}
