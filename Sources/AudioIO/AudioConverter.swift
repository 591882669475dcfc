import CFFmpeg

/// Converts a stream of buffers from one rate and channel layout to another, like
/// `AVAudioConverter`.
///
/// The resampler keeps state between calls, so a stream converted buffer by buffer comes out
/// the same as if it had been converted in one piece. Call ``finish()`` at the end of the
/// stream to collect the last few frames the filter still holds. One converter serves one
/// stream; it is not safe to share between tasks.
public final class AudioConverter {
  /// The format of the buffers given to ``convert(_:)``.
  public let inputFormat: AudioFormat
  /// The format of the buffers it returns.
  public let outputFormat: AudioFormat
  private var resampler: OpaquePointer?

  /// Creates a converter from `inputFormat` to `outputFormat`.
  ///
  /// - Throws: ``AudioIOError/unsupportedFormat(_:)`` when the resampler cannot be set up for
  ///   these formats (for instance a channel count FFmpeg has no layout for).
  public init(from inputFormat: AudioFormat, to outputFormat: AudioFormat) throws(AudioIOError) {
    self.inputFormat = inputFormat
    self.outputFormat = outputFormat
    guard inputFormat != outputFormat else { return }
    var inputLayout = AVChannelLayout()
    var outputLayout = AVChannelLayout()
    av_channel_layout_default(&inputLayout, Int32(inputFormat.channels))
    av_channel_layout_default(&outputLayout, Int32(outputFormat.channels))
    defer {
      av_channel_layout_uninit(&inputLayout)
      av_channel_layout_uninit(&outputLayout)
    }
    var status = swr_alloc_set_opts2(
      &resampler, &outputLayout, AV_SAMPLE_FMT_FLT, Int32(outputFormat.sampleRate),
      &inputLayout, AV_SAMPLE_FMT_FLT, Int32(inputFormat.sampleRate), 0, nil)
    if status >= 0, resampler != nil { status = swr_init(resampler) }
    guard status >= 0, resampler != nil else {
      swr_free(&resampler)
      throw .unsupportedFormat("cannot convert \(inputFormat) to \(outputFormat): \(FFmpegDecoder.describe(status))")
    }
  }

  deinit {
    swr_free(&resampler)
  }

  /// Converts `buffer`, which must be in ``inputFormat``; the result may be a few frames short
  /// of the exact ratio until ``finish()`` releases what the filter holds.
  public func convert(_ buffer: AudioBuffer) -> AudioBuffer {
    precondition(buffer.format == inputFormat, "the buffer is \(buffer.format), the converter expects \(inputFormat)")
    guard let resampler else { return buffer }
    var output: [Float] = []
    let frames = Int32(buffer.frameLength)
    buffer.samples.withUnsafeBufferPointer { input in
      var plane: UnsafePointer<UInt8>? = UnsafeRawPointer(input.baseAddress).map {
        $0.assumingMemoryBound(to: UInt8.self)
      }
      withUnsafeMutablePointer(to: &plane) { planes in
        pull(from: resampler, into: &output, input: planes, frames: frames)
      }
    }
    return AudioBuffer(format: outputFormat, samples: output)
  }

  /// Returns the frames still held by the resampler's filter; call once, after the last buffer.
  public func finish() -> AudioBuffer {
    guard let resampler else { return AudioBuffer(format: outputFormat) }
    var output: [Float] = []
    pull(from: resampler, into: &output, input: nil, frames: 0)
    return AudioBuffer(format: outputFormat, samples: output)
  }

  private func pull(
    from resampler: OpaquePointer, into output: inout [Float],
    input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, frames: Int32
  ) {
    let capacity = Int(swr_get_out_samples(resampler, frames)) + 32
    let channels = outputFormat.channels
    output = [Float](repeating: 0, count: capacity * channels)
    let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
      var plane: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer.baseAddress!)
        .assumingMemoryBound(to: UInt8.self)
      return withUnsafeMutablePointer(to: &plane) { planes in
        swr_convert(resampler, planes, Int32(capacity), input, frames)
      }
    }
    output.removeLast(output.count - Int(max(written, 0)) * channels)
  }
}
