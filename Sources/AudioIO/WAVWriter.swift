import Foundation

/// Writes PCM audio to a RIFF/WAVE file, incrementally or in one atomic step.
///
/// Incremental writing keeps the header's sizes current after every ``write(_:)``, so a file
/// whose writer dies mid-way is still a playable WAV of everything written so far.
public final class WAVWriter {
  /// How samples are stored in the file.
  public enum SampleEncoding: Sendable {
    /// 16-bit signed integers: what most players and tools expect.
    case int16
    /// 32-bit IEEE floats: lossless for decoded audio.
    case float32

    var bytesPerSample: Int { self == .int16 ? 2 : 4 }
    var formatTag: UInt16 { self == .int16 ? 1 : 3 }
  }

  /// Where the file is written.
  public let url: URL
  /// The rate and channel count of the audio written.
  public let format: AudioFormat
  /// How samples are stored.
  public let encoding: SampleEncoding
  private let handle: FileHandle
  private var dataBytes: UInt32 = 0

  /// Creates (or truncates) the file at `url` and writes a header for `format`.
  public init(url: URL, format: AudioFormat, encoding: SampleEncoding = .int16) throws(AudioIOError) {
    self.url = url
    self.format = format
    self.encoding = encoding
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw .writeFailed(path: url.path, detail: "cannot create the file")
    }
    do {
      handle = try FileHandle(forWritingTo: url)
      try handle.write(contentsOf: Self.header(format: format, encoding: encoding, dataBytes: 0))
    } catch {
      throw .writeFailed(path: url.path, detail: FileSystemFailure.reason(for: error))
    }
  }

  deinit { try? handle.close() }

  /// The number of frames written so far.
  public var framesWritten: Int { Int(dataBytes) / (encoding.bytesPerSample * format.channels) }

  /// Appends `buffer`, which must be in the writer's format, and updates the header's sizes.
  public func write(_ buffer: AudioBuffer) throws(AudioIOError) {
    precondition(buffer.format == format, "buffer format \(buffer.format) differs from the file's \(format)")
    let bytes = Self.encode(buffer.samples, as: encoding)
    do {
      try handle.seekToEnd()
      try handle.write(contentsOf: bytes)
      dataBytes += UInt32(bytes.count)
      try handle.seek(toOffset: 0)
      try handle.write(contentsOf: Self.header(format: format, encoding: encoding, dataBytes: dataBytes))
    } catch {
      throw .writeFailed(path: url.path, detail: FileSystemFailure.reason(for: error))
    }
  }

  /// Forces everything written so far onto the disk (`fsync`), so that not even a power cut
  /// loses it. Each ``write(_:)`` already reaches the operating system, which keeps it when the
  /// process dies.
  public func flush() throws(AudioIOError) {
    do {
      try handle.synchronize()
    } catch {
      throw .writeFailed(path: url.path, detail: FileSystemFailure.reason(for: error))
    }
  }

  /// Flushes the file to disk and closes it.
  public func close() throws(AudioIOError) {
    do {
      try handle.synchronize()
      try handle.close()
    } catch {
      throw .writeFailed(path: url.path, detail: FileSystemFailure.reason(for: error))
    }
  }

  /// Writes `buffer` to `url` as a complete WAV file, atomically: a reader sees the old file or
  /// the whole new one, never a part.
  public static func write(_ buffer: AudioBuffer, to url: URL, encoding: SampleEncoding = .int16) throws(AudioIOError) {
    let data = fileData(for: buffer, encoding: encoding)
    do {
      try data.write(to: url, options: .atomic)
    } catch {
      throw .writeFailed(path: url.path, detail: FileSystemFailure.reason(for: error))
    }
  }

  /// The bytes of a complete WAV file holding `buffer`, made in memory (for an upload, say).
  ///
  /// ```swift
  /// let wav = WAVWriter.fileData(for: buffer)  // 44-byte header, then 16-bit samples
  /// ```
  public static func fileData(for buffer: AudioBuffer, encoding: SampleEncoding = .int16) -> Data {
    var data = header(
      format: buffer.format, encoding: encoding, dataBytes: UInt32(buffer.samples.count * encoding.bytesPerSample))
    data.append(encode(buffer.samples, as: encoding))
    return data
  }

  private static func encode(_ samples: [Float], as encoding: SampleEncoding) -> Data {
    switch encoding {
    case .int16:
      let values = samples.map { Int16((max(-1, min(1, $0)) * 32767).rounded()).littleEndian }
      return values.withUnsafeBytes { Data($0) }
    case .float32:
      let values = samples.map { $0.bitPattern.littleEndian }
      return values.withUnsafeBytes { Data($0) }
    }
  }

  private static func header(format: AudioFormat, encoding: SampleEncoding, dataBytes: UInt32) -> Data {
    var data = Data(capacity: 44)
    func append<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    let channels = UInt16(format.channels)
    let rate = UInt32(format.sampleRate)
    let blockAlign = channels * UInt16(encoding.bytesPerSample)
    data.append(contentsOf: Array("RIFF".utf8))
    append(UInt32(36) + dataBytes)
    data.append(contentsOf: Array("WAVEfmt ".utf8))
    append(UInt32(16))
    append(encoding.formatTag)
    append(channels)
    append(rate)
    append(rate * UInt32(blockAlign))
    append(blockAlign)
    append(UInt16(encoding.bytesPerSample * 8))
    data.append(contentsOf: Array("data".utf8))
    append(dataBytes)
    return data
  }
}
