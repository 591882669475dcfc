import Foundation

/// An audio file with AVFoundation's shape: opened for reading (any format FFmpeg decodes) or
/// for writing (WAV, or the compressed format the settings name), read into and written from
/// ``AVAudioPCMBuffer``s.
///
/// Reading decodes at the file's own rate and channel count (its ``processingFormat``), from
/// ``framePosition`` on. Writing linear PCM creates a WAV file in the format the settings give
/// (``AudioFormat/settings``: rate, channels, and 16-bit integer or 32-bit float samples) and
/// keeps its header right after every write, so a file cut short by a crash still plays. A
/// compressed format ID (`kAudioFormatMPEG4AAC`, `kAudioFormatAppleLossless`, `kAudioFormatFLAC`,
/// `kAudioFormatOpus`, `kAudioFormatMPEGLayer3`, µ-law, A-law, IMA 4:1) is encoded by FFmpeg into
/// the container the URL's extension names when it holds that codec, and the codec's usual one
/// otherwise; AAC in MP4 is written in fragments of a second, each playable once written.
/// Differences on Linux: linear PCM is written as WAV whatever the extension; HE-AAC is written
/// as AAC-LC; buffers hold 32-bit floats unless a common format of integers is asked for.
public final class AVAudioFile: @unchecked Sendable {
  /// Where the file is.
  public let url: URL
  /// The format stored in the file.
  public let fileFormat: AVAudioFormat
  /// The format of the buffers read from or written to the file: the file's rate and channels,
  /// as 32-bit floats unless the file was opened with another common format.
  public let processingFormat: AVAudioFormat
  private let reader: AudioFile?
  private let writer: (any AudioFileWriter)?
  private var decoded: AudioBuffer?
  private var position: AVAudioFramePosition = 0
  private var closed = false

  /// Opens the file at `url` for reading.
  ///
  /// - Throws: ``AudioIOError`` when the file is missing, empty, a folder, or holds no audio.
  public convenience init(forReading url: URL) throws {
    try self.init(forReading: url, commonFormat: .pcmFormatFloat32, interleaved: false)
  }

  /// Opens the file at `url` for reading into buffers of `format`: 32-bit floats, or 16- or 32-bit
  /// integers converted from the decoded audio. Buffers hold each channel separately, as they do
  /// for `interleaved: false`; `interleaved: true` is accepted for a mono file, where both
  /// layouts are the same.
  ///
  /// - Throws: ``AudioIOError`` as ``init(forReading:)`` does, and `unsupportedFormat` for an
  ///   encoding buffers cannot hold or an interleaved layout of several channels.
  public init(forReading url: URL, commonFormat format: AVAudioCommonFormat, interleaved: Bool) throws {
    let file = try AudioFile(forReading: url)
    let rate = file.fileFormat.sampleRate
    let channels = file.fileFormat.channels
    guard
      let processing = AVAudioFormat(
        commonFormat: format, sampleRate: rate, channels: AVAudioChannelCount(channels), interleaved: interleaved)
    else {
      throw AudioIOError.unsupportedFormat(
        "\(url.lastPathComponent) can be read as .pcmFormatFloat32, .pcmFormatInt16 or .pcmFormatInt32, not \(format)")
    }
    guard !interleaved || channels == 1 else {
      throw AudioIOError.unsupportedFormat(
        "\(url.lastPathComponent) has \(channels) channels; buffers hold them separately (interleaved: false)")
    }
    self.url = url
    reader = file
    writer = nil
    fileFormat = file.fileFormat
    processingFormat = processing
  }

  /// Creates (or replaces) a file at `url` in the format `settings` describe: the sample rate
  /// and channel count, and for linear PCM a WAV of 32-bit float samples when
  /// `AVLinearPCMIsFloatKey` is true and 16-bit integers otherwise; a compressed format ID is
  /// encoded (AAC at the bit rate `AVEncoderBitRateKey` or `AVEncoderAudioQualityKey` gives).
  ///
  /// - Throws: ``AudioIOError`` when the settings lack a positive rate or channel count or name
  ///   no Core Audio format, the codec does not take the rate, or the file cannot be created.
  public convenience init(forWriting url: URL, settings: [String: Any]) throws {
    try self.init(forWriting: url, settings: settings, processing: .pcmFormatFloat32)
  }

  /// Creates the file as ``init(forWriting:settings:)`` describes, for buffers of `processing`.
  private init(forWriting url: URL, settings: [String: Any], processing: AVAudioCommonFormat) throws {
    let asked = try AudioSettings(settings, for: url)
    writer = try asked.makeWriter(at: url)
    reader = nil
    self.url = url
    fileFormat = asked.fileFormat
    processingFormat = AudioFormat(sampleRate: asked.sampleRate, channelCount: asked.channels, commonFormat: processing)
  }

  /// Creates a WAV file as ``init(forWriting:settings:)`` does, written from buffers of `format`
  /// (32-bit floats, 16- or 32-bit integers; others are written from floats); `interleaved` is
  /// accepted for compatibility, buffers holding each channel separately.
  public convenience init(
    forWriting url: URL, settings: [String: Any], commonFormat format: AudioFormat.CommonFormat, interleaved: Bool
  ) throws {
    let buffered = AudioFormat.bufferEncodings.contains(format)
    try self.init(forWriting: url, settings: settings, processing: buffered ? format : .pcmFormatFloat32)
  }

  /// The file's length in frames: as declared when reading, as written so far when writing.
  public var length: AVAudioFramePosition {
    if let writer { return AVAudioFramePosition(writer.framesWritten) }
    if let decoded { return AVAudioFramePosition(decoded.frameLength) }
    return reader?.length ?? 0
  }

  /// The frame the next read starts at (or the next write appends after).
  public var framePosition: AVAudioFramePosition {
    get { writer.map { AVAudioFramePosition($0.framesWritten) } ?? position }
    set { position = max(newValue, 0) }
  }

  /// The file opened for reading as this package's ``AudioFile`` (our extension), for APIs that
  /// take one; a file being written is opened afresh.
  public var audioFile: AudioFile {
    get throws { try reader ?? AudioFile(forReading: url) }
  }

  /// Reads frames from ``framePosition`` on into `buffer`, as many as it holds.
  public func read(into buffer: AVAudioPCMBuffer) throws {
    try read(into: buffer, frameCount: buffer.frameCapacity)
  }

  /// Reads up to `frames` frames from ``framePosition`` on into `buffer` (fewer at the end).
  ///
  /// - Throws: ``AudioIOError`` when the file cannot be decoded or the buffer's format is not
  ///   the ``processingFormat``.
  public func read(into buffer: AVAudioPCMBuffer, frameCount frames: AVAudioFrameCount) throws {
    guard let reader else { throw AudioIOError.unsupportedFormat("\(url.lastPathComponent) was opened for writing") }
    guard !closed else { throw AudioIOError.unsupportedFormat("\(url.lastPathComponent) is closed") }
    guard buffer.format == processingFormat else {
      throw AudioIOError.unsupportedFormat("read into a \(processingFormat) buffer, not \(buffer.format)")
    }
    if decoded == nil { decoded = try reader.read(format: processingFormat.floatFormat) }
    guard let decoded else { return }
    let start = Int(min(position, AVAudioFramePosition(decoded.frameLength)))
    let end = min(start + Int(min(frames, buffer.frameCapacity)), decoded.frameLength)
    buffer.frameLength = 0
    buffer.append(decoded.frames(start..<end))
    position = AVAudioFramePosition(end)
  }

  /// Appends `buffer`'s frames to the file.
  ///
  /// - Throws: ``AudioIOError`` when the file was opened for reading, the buffer's format is not
  ///   the file's, or the disk refuses the write.
  public func write(from buffer: AVAudioPCMBuffer) throws {
    guard let writer else { throw AudioIOError.unsupportedFormat("\(url.lastPathComponent) was opened for reading") }
    guard !closed else { throw AudioIOError.unsupportedFormat("\(url.lastPathComponent) is closed") }
    guard buffer.format == processingFormat else {
      throw AudioIOError.unsupportedFormat("write a \(processingFormat) buffer, not \(buffer.format)")
    }
    try writer.write(buffer.audioBuffer)
    try writer.flush()
  }

  /// Finishes writing: a WAV header is already right, an encoder writes its last frames. A file
  /// read is closed too; ``isOpen`` tells.
  public func close() {
    try? writer?.close()
    closed = true
  }

  /// Whether the file is open: until ``close()``.
  public var isOpen: Bool { !closed }
}
