import CFFmpeg
import Foundation

/// The only code that talks to FFmpeg: opens a file, finds its audio stream and decodes it.
///
/// Owns the FFmpeg contexts and frees them in `deinit`; every return code goes through ``check``.
final class FFmpegDecoder {
  private let path: String
  private var formatContext: UnsafeMutablePointer<AVFormatContext>?
  private var codecContext: UnsafeMutablePointer<AVCodecContext>?
  private let streamIndex: Int32
  private let timeBase: AVRational

  let containerName: String
  let codecName: String
  let sourceFormat: AudioFormat
  let declaredDuration: Double

  private static let quietLogs: Void = av_log_set_level(AV_LOG_QUIET)

  /// The highest sample rate taken: 768 kHz, the highest any recording format uses.
  static let maximumSampleRate: Int32 = 768_000

  /// The most samples reserved before decoding (about 35 minutes of 16 kHz mono); longer audio
  /// grows the buffer as it decodes.
  static let maximumReservedSamples = Double(1 << 25)

  init(url: URL) throws(AudioIOError) {
    _ = Self.quietLogs
    path = url.path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .fileNotFound(path: path)
    }
    if isDirectory.boolValue { throw .isDirectory(path: path) }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    if size == 0 { throw .emptyFile(path: path) }

    var context: UnsafeMutablePointer<AVFormatContext>?
    var status = avformat_open_input(&context, path, nil, nil)
    guard status >= 0, let context else {
      throw .notAudio(path: path, detail: Self.describe(status))
    }
    formatContext = context
    status = avformat_find_stream_info(context, nil)
    guard status >= 0 else { throw .notAudio(path: path, detail: Self.describe(status)) }

    var codec: UnsafePointer<AVCodec>?
    let index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0)
    if index < 0 && index != cffmpeg_error_decoder_not_found() {
      throw .noAudioStream(path: path)
    }
    let stream = context.pointee.streams[Int(max(index, 0))]!
    let parameters = stream.pointee.codecpar!
    let codecID = parameters.pointee.codec_id
    codecName = String(cString: avcodec_get_name(codecID))
    containerName = String(cString: context.pointee.iformat.pointee.name)
    guard index >= 0, let codec else { throw .unsupportedCodec(path: path, codec: codecName) }
    streamIndex = index

    guard let codecContext = avcodec_alloc_context3(codec) else {
      throw .corrupt(path: path, detail: "out of memory")
    }
    self.codecContext = codecContext
    status = avcodec_parameters_to_context(codecContext, parameters)
    guard status >= 0 else { throw .corrupt(path: path, detail: Self.describe(status)) }
    // With the packets' time base the decoder moves a frame's time past the samples it skips
    // (an Opus stream's pre-skip), so the time tells what is left to skip.
    codecContext.pointee.pkt_timebase = stream.pointee.time_base
    status = avcodec_open2(codecContext, codec, nil)
    guard status >= 0 else { throw .unsupportedCodec(path: path, codec: codecName) }
    if codecContext.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
      let channels = max(codecContext.pointee.ch_layout.nb_channels, 1)
      av_channel_layout_uninit(&codecContext.pointee.ch_layout)
      av_channel_layout_default(&codecContext.pointee.ch_layout, channels)
    }
    let rate = codecContext.pointee.sample_rate
    let channels = codecContext.pointee.ch_layout.nb_channels
    guard rate > 0, channels > 0 else {
      throw .corrupt(path: path, detail: "the stream declares no sample rate or channels")
    }
    // A damaged header can declare any rate, and resampling from, say, 1.8 GHz makes FFmpeg's
    // resampler allocate gigabytes for its filter before a sample is read.
    guard rate <= Self.maximumSampleRate else {
      throw .corrupt(path: path, detail: "the stream declares an impossible sample rate of \(rate) Hz")
    }
    sourceFormat = AudioFormat(sampleRate: Double(rate), channelCount: Int(channels))
    var duration = 0.0
    if context.pointee.duration > 0 {
      duration = Double(context.pointee.duration) / Double(AV_TIME_BASE)
    } else if stream.pointee.duration > 0 {
      duration = Self.seconds(stream.pointee.duration, stream.pointee.time_base)
    }
    timeBase = stream.pointee.time_base
    // Audio timed before zero is an encoder's priming, which players skip (see `drainFrames`).
    let start = context.pointee.start_time
    if start != Int64.min, start < 0 { duration = max(duration + Double(start) / Double(AV_TIME_BASE), 0) }
    // A duration read from a damaged header can be infinite or so long that `length` overflows.
    declaredDuration = duration.isFinite && duration <= 1e9 ? duration : 0
  }

  deinit {
    decoding = nil
    if codecContext != nil { avcodec_free_context(&codecContext) }
    if formatContext != nil { avformat_close_input(&formatContext) }
  }

  /// Decodes every packet of the audio stream and resamples to `format`.
  func decode(to format: AudioFormat) throws(AudioIOError) -> AudioBuffer {
    // The declared duration only sizes the first allocation, and within reason: a damaged header
    // can declare days of audio in a few bytes (an MP3 of 2 kB declared 13 days, 74 GB of samples).
    let expected = declaredDuration * format.sampleRate * Double(format.channels)
    let reserve = expected > 0 ? Int(min(expected, Self.maximumReservedSamples)) + 4096 : 0
    let samples = try read(frames: .max, as: format, reserving: reserve) ?? []
    return AudioBuffer(format: format, samples: samples)
  }

  /// Decodes on from where the last call stopped until `frames` frames of `format` are ready or
  /// the stream ends, and returns them (fewer only at the end); nil once the stream is done.
  ///
  /// Memory stays that of one piece, whatever the length of the file. Every call must ask for the
  /// same `format`.
  ///
  /// - Throws: ``AudioIOError/corrupt(path:detail:)`` when the stream ends without any audio.
  func read(frames: Int, as format: AudioFormat, reserving reserve: Int = 0) throws(AudioIOError) -> [Float]? {
    let decoding: Decoding
    if let current = self.decoding {
      decoding = current
    } else {
      decoding = try Decoding(decoder: self, format: format)
      self.decoding = decoding
    }
    let wanted = frames.multipliedReportingOverflow(by: format.channels)
    let count = wanted.overflow ? Int.max : wanted.partialValue
    if decoding.pending.isEmpty { decoding.pending.reserveCapacity(reserve) }
    while decoding.pending.count < count, !decoding.isAtEnd {
      try decodeNextPacket(decoding)
    }
    guard !decoding.pending.isEmpty else {
      guard decoding.returnedAny else {
        let detail =
          decoding.decodeErrors > 0 ? Self.describe(decoding.lastError) : "no audio samples in the stream"
        throw .corrupt(path: path, detail: detail)
      }
      return nil
    }
    decoding.returnedAny = true
    if decoding.pending.count <= count {
      defer { decoding.pending = [] }
      return decoding.pending
    }
    let piece = Array(decoding.pending[..<count])
    decoding.pending.removeFirst(count)
    return piece
  }

  /// The state of a decode in progress: the resampler to the output format, FFmpeg's packet and
  /// frame, and the samples decoded but not yet returned.
  private final class Decoding {
    let format: AudioFormat
    let resampler: OpaquePointer
    let packet: UnsafeMutablePointer<AVPacket>
    let frame: UnsafeMutablePointer<AVFrame>
    // What the resampler was made for: a damaged stream can change its channels, rate or sample
    // format midway (MPEG frames do), and converting such a frame read planes it does not have.
    let channels: Int32
    let rate: Int32
    let sampleFormat: Int32
    var pending: [Float] = []
    /// Frames still to drop from the start: audio timed before zero (an encoder's priming that an
    /// MP4 written in fragments marks with negative times instead of an edit list).
    var framesToSkip = 0
    var sawFirstFrame = false
    /// Frames decoded so far, after those skipped.
    var framesDecoded = 0
    var isAtEnd = false
    var returnedAny = false
    var decodeErrors = 0
    var lastError: Int32 = 0

    init(decoder: FFmpegDecoder, format: AudioFormat) throws(AudioIOError) {
      guard let codecContext = decoder.codecContext else { throw .corrupt(path: decoder.path, detail: "not open") }
      resampler = try decoder.makeResampler(to: format)
      guard let packet = av_packet_alloc(), let frame = av_frame_alloc() else {
        var pointer: OpaquePointer? = resampler
        swr_free(&pointer)
        throw .corrupt(path: decoder.path, detail: "out of memory")
      }
      self.format = format
      self.packet = packet
      self.frame = frame
      channels = codecContext.pointee.ch_layout.nb_channels
      rate = codecContext.pointee.sample_rate
      sampleFormat = codecContext.pointee.sample_fmt.rawValue
    }

    deinit {
      var resamplerPointer: OpaquePointer? = resampler
      swr_free(&resamplerPointer)
      var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
      av_packet_free(&packetPointer)
      var framePointer: UnsafeMutablePointer<AVFrame>? = frame
      av_frame_free(&framePointer)
    }
  }

  private var decoding: Decoding?

  /// Reads the next packet of the audio stream and decodes its frames into `decoding.pending`;
  /// at the end of the file, drains the decoder and the resampler and marks the decode done.
  private func decodeNextPacket(_ decoding: Decoding) throws(AudioIOError) {
    guard let formatContext, let codecContext else { throw .corrupt(path: path, detail: "not open") }
    let packet = decoding.packet
    let status = av_read_frame(formatContext, packet)
    if status < 0 {
      if status != cffmpeg_error_eof() {
        decoding.decodeErrors += 1
        decoding.lastError = status
      }
      avcodec_send_packet(codecContext, nil)
      drainFrames(decoding)
      Self.flush(decoding.resampler, format: decoding.format, into: &decoding.pending)
      trimPadding(decoding)
      decoding.isAtEnd = true
      return
    }
    if packet.pointee.stream_index == streamIndex {
      let sent = avcodec_send_packet(codecContext, packet)
      if sent < 0 && sent != cffmpeg_error_eagain() {
        decoding.decodeErrors += 1
        decoding.lastError = sent
      }
      drainFrames(decoding)
    }
    av_packet_unref(packet)
  }

  private func drainFrames(_ decoding: Decoding) {
    guard let codecContext else { return }
    let frame = decoding.frame
    while true {
      let status = avcodec_receive_frame(codecContext, frame)
      if status == cffmpeg_error_eagain() || status == cffmpeg_error_eof() { return }
      if status < 0 {
        decoding.decodeErrors += 1
        decoding.lastError = status
        return
      }
      if frame.pointee.ch_layout.nb_channels == decoding.channels, frame.pointee.sample_rate == decoding.rate,
        frame.pointee.format == decoding.sampleFormat
      {
        if !decoding.sawFirstFrame {
          decoding.sawFirstFrame = true
          let time = frame.pointee.best_effort_timestamp
          if time != Int64.min, time < 0 {
            // Priming lasts a fraction of a second; a damaged stream's times can say anything.
            let seconds = Self.seconds(-time, timeBase)
            if seconds < 1 { decoding.framesToSkip = Int((seconds * decoding.format.sampleRate).rounded()) }
          }
        }
        let before = decoding.pending.count
        Self.convert(frame: frame, with: decoding.resampler, format: decoding.format, into: &decoding.pending)
        if decoding.framesToSkip > 0 {
          let channels = decoding.format.channels
          let dropped = min((decoding.pending.count - before) / channels, decoding.framesToSkip)
          decoding.pending.removeSubrange(before..<(before + dropped * channels))
          decoding.framesToSkip -= dropped
        }
        decoding.framesDecoded += (decoding.pending.count - before) / decoding.format.channels
      } else {
        decoding.decodeErrors += 1
      }
      av_frame_unref(frame)
    }
  }

  /// Drops the silence an encoder padded its last frame with, where an MP4 file's duration says
  /// where the audio ends: less than two frames of AAC past it (an MP4 written in fragments keeps
  /// no edit list to trim it by). Other containers' durations can be estimates, so they are left.
  private func trimPadding(_ decoding: Decoding) {
    guard containerName.hasPrefix("mov,mp4"), declaredDuration > 0 else { return }
    let excess = decoding.framesDecoded - Int((declaredDuration * decoding.format.sampleRate).rounded())
    let limit = Int(2_048 * decoding.format.sampleRate / Double(max(decoding.rate, 1)))
    guard excess > 0, excess < limit else { return }
    let samples = min(excess * decoding.format.channels, decoding.pending.count)
    decoding.pending.removeLast(samples)
    decoding.framesDecoded -= samples / decoding.format.channels
  }

  /// `time` in `base` units, in seconds.
  private static func seconds(_ time: Int64, _ base: AVRational) -> Double {
    Double(time) * Double(base.num) / Double(max(base.den, 1))
  }

  private func makeResampler(to format: AudioFormat) throws(AudioIOError) -> OpaquePointer {
    guard let codecContext else { throw .corrupt(path: path, detail: "not open") }
    var resampler: OpaquePointer?
    var outputLayout = AVChannelLayout()
    av_channel_layout_default(&outputLayout, Int32(format.channels))
    defer { av_channel_layout_uninit(&outputLayout) }
    var status = swr_alloc_set_opts2(
      &resampler, &outputLayout, AV_SAMPLE_FMT_FLT, Int32(format.sampleRate),
      &codecContext.pointee.ch_layout, codecContext.pointee.sample_fmt, codecContext.pointee.sample_rate,
      0, nil)
    guard status >= 0, let resampler else { throw .corrupt(path: path, detail: Self.describe(status)) }
    status = swr_init(resampler)
    guard status >= 0 else {
      var pointer: OpaquePointer? = resampler
      swr_free(&pointer)
      throw .corrupt(path: path, detail: Self.describe(status))
    }
    return resampler
  }

  private static func convert(
    frame: UnsafeMutablePointer<AVFrame>, with resampler: OpaquePointer, format: AudioFormat,
    into samples: inout [Float]
  ) {
    let inputCount = frame.pointee.nb_samples
    let capacity = Int(swr_get_out_samples(resampler, inputCount))
    guard capacity > 0 else { return }
    let input = UnsafeMutablePointer<UnsafePointer<UInt8>?>(OpaquePointer(frame.pointee.extended_data))
    append(capacity: capacity, format: format, to: &samples) { output in
      swr_convert(resampler, output, Int32(capacity), input, inputCount)
    }
  }

  private static func flush(_ resampler: OpaquePointer, format: AudioFormat, into samples: inout [Float]) {
    let capacity = Int(swr_get_out_samples(resampler, 0)) + 256
    append(capacity: capacity, format: format, to: &samples) { output in
      swr_convert(resampler, output, Int32(capacity), nil, 0)
    }
  }

  /// Grows `samples` by `capacity` frames, lets `body` fill them, and keeps what it wrote.
  private static func append(
    capacity: Int, format: AudioFormat, to samples: inout [Float],
    _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>) -> Int32
  ) {
    let start = samples.count
    samples.append(contentsOf: repeatElement(0, count: capacity * format.channels))
    let written = samples.withUnsafeMutableBufferPointer { buffer -> Int32 in
      var plane: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer.baseAddress! + start)
        .assumingMemoryBound(to: UInt8.self)
      return withUnsafeMutablePointer(to: &plane) { body($0) }
    }
    samples.removeLast(samples.count - start - Int(max(written, 0)) * format.channels)
  }

  static func describe(_ status: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    av_strerror(status, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
