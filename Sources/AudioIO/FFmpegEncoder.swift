import CFFmpeg
import Foundation

/// Encodes audio into a compressed file with FFmpeg (AAC, Apple Lossless, FLAC, Opus, MP3,
/// G.711, IMA ADPCM), appending as buffers come, as a recorder needs.
///
/// The container is the one the file's extension names (`.m4a`, `.caf`, `.ogg`, ...) when it is
/// one that holds the codec, and the codec's usual one otherwise (AAC asked of a `.wav` file is
/// stored in MP4 under that name; FFmpeg reads files by their content). An MP4 file is written in fragments of
/// at most a second, each complete on disk once written, so a recording cut short by a crash
/// still plays up to its last fragment.
final class FFmpegEncoder: AudioFileWriter {
  /// A codec this writer encodes with, and where it is stored when the extension says nothing.
  struct Codec: Equatable, Sendable {
    /// FFmpeg's name of the encoder.
    let encoder: String
    /// FFmpeg's names of the containers that hold it, the first used when the file's extension
    /// names none of them.
    let containers: [String]
    /// The name people know the format by, for messages.
    let name: String

    /// Whether the codec keeps every sample as it was (stored as 16-bit integers).
    var isLossless: Bool { [Self.appleLossless, Self.flac].contains(self) }
    /// Whether the codec is lossy at a bit rate one chooses (G.711 and IMA have a fixed one).
    var takesBitRate: Bool { [Self.aac, Self.opus, Self.mp3].contains(self) }

    static let aac = Codec(encoder: "aac", containers: ["ipod", "mp4", "mov", "adts"], name: "AAC")
    static let appleLossless = Codec(
      encoder: "alac", containers: ["ipod", "mp4", "mov", "caf"], name: "Apple Lossless")
    static let flac = Codec(encoder: "flac", containers: ["flac", "caf", "ogg"], name: "FLAC")
    static let opus = Codec(encoder: "libopus", containers: ["ogg", "opus", "caf", "webm"], name: "Opus")
    static let mp3 = Codec(encoder: "libmp3lame", containers: ["mp3", "caf"], name: "MP3")
    static let muLaw = Codec(encoder: "pcm_mulaw", containers: ["wav", "caf", "au"], name: "µ-law")
    static let aLaw = Codec(encoder: "pcm_alaw", containers: ["wav", "caf", "au"], name: "A-law")
    static let ima4 = Codec(encoder: "adpcm_ima_qt", containers: ["caf", "mov", "aiff"], name: "IMA 4:1")
  }

  let url: URL
  /// The rate and channels of the buffers written (the file's own).
  let format: AudioFormat
  /// The codec the file holds.
  let codec: Codec
  private(set) var framesWritten = 0
  private var output: UnsafeMutablePointer<AVFormatContext>?
  private var encoder: UnsafeMutablePointer<AVCodecContext>?
  private var converter: OpaquePointer?
  private let stream: UnsafeMutablePointer<AVStream>
  private let packet: UnsafeMutablePointer<AVPacket>
  private let frame: UnsafeMutablePointer<AVFrame>
  /// Samples per frame the encoder takes (the last may be shorter or is padded).
  private let frameSize: Int
  private let padsLastFrame: Bool
  /// Interleaved samples not yet handed to the encoder: less than one frame.
  private var pending: [Float] = []
  private var framesEncoded: Int64 = 0

  /// Creates (or truncates) the file at `url` for audio of `format` encoded with `codec`, at
  /// `bitRate` bits a second when given (the encoder's default otherwise).
  ///
  /// - Throws: ``AudioIOError/unsupportedFormat(_:)`` when the codec does not take the rate or
  ///   channel count, ``AudioIOError/writeFailed(path:detail:)`` when the file cannot be made.
  init(url: URL, format: AudioFormat, codec: Codec, bitRate: Int? = nil) throws(AudioIOError) {
    self.url = url
    self.format = format
    self.codec = codec
    let opened = try Self.open(url.path, format: format, codec: codec, bitRate: bitRate)
    output = opened.output
    encoder = opened.encoder
    converter = opened.converter
    stream = opened.stream
    packet = opened.packet
    frame = opened.frame
    let fixed = Int(opened.encoder.pointee.frame_size)
    frameSize = fixed > 0 ? fixed : 4096
    padsLastFrame = fixed > 0 && !opened.takesShortLastFrame
  }

  /// FFmpeg's side of a file opened for encoding, its header written.
  private struct Opened {
    var output: UnsafeMutablePointer<AVFormatContext>
    var encoder: UnsafeMutablePointer<AVCodecContext>
    var converter: OpaquePointer
    var stream: UnsafeMutablePointer<AVStream>
    var packet: UnsafeMutablePointer<AVPacket>
    var frame: UnsafeMutablePointer<AVFrame>
    var takesShortLastFrame: Bool
  }

  /// Opens the encoder, the converter from interleaved floats, and the container at `path`, and
  /// writes the header; on failure frees what it made.
  private static func open(_ path: String, format: AudioFormat, codec: Codec, bitRate: Int?) throws(AudioIOError)
    -> Opened
  {
    guard let found = avcodec_find_encoder_by_name(codec.encoder) else {
      throw .unsupportedFormat("this FFmpeg has no \(codec.name) encoder (\(codec.encoder)); record linear PCM instead")
    }
    let rate = Int32(format.sampleRate)
    if let rates = found.pointee.supported_samplerates {
      var supported: [Int32] = []
      while rates[supported.count] != 0 { supported.append(rates[supported.count]) }
      guard supported.contains(rate), Double(rate) == format.sampleRate else {
        let listed = supported.sorted().map { String(format: "%g", Double($0) / 1000) }.joined(separator: ", ")
        throw .unsupportedFormat(
          "\(codec.name) records at \(listed) kHz, not \(String(format: "%g", format.sampleRate / 1000)) kHz")
      }
    }
    var packet = av_packet_alloc()
    var frame = av_frame_alloc()
    var output: UnsafeMutablePointer<AVFormatContext>?
    var encoder: UnsafeMutablePointer<AVCodecContext>?
    var converter: OpaquePointer?
    var done = false
    defer {
      if !done {
        av_packet_free(&packet)
        av_frame_free(&frame)
        release(output: &output, encoder: &encoder, converter: &converter)
      }
    }
    avformat_alloc_output_context2(&output, nil, nil, path)
    if let guessed = output, !codec.containers.contains(String(cString: guessed.pointee.oformat.pointee.name)) {
      avformat_free_context(guessed)
      output = nil
    }
    if output == nil { avformat_alloc_output_context2(&output, nil, codec.containers[0], path) }
    encoder = avcodec_alloc_context3(found)
    guard let packet, let frame, let output, let encoder, let stream = avformat_new_stream(output, nil) else {
      throw .writeFailed(path: path, detail: "FFmpeg could not set up the \(codec.name) file")
    }
    encoder.pointee.sample_rate = rate
    encoder.pointee.sample_fmt = preferredSampleFormat(of: found, lossless: codec.isLossless)
    encoder.pointee.time_base = AVRational(num: 1, den: rate)
    av_channel_layout_default(&encoder.pointee.ch_layout, Int32(format.channels))
    if let bitRate { encoder.pointee.bit_rate = Int64(bitRate) }
    if output.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
      encoder.pointee.flags |= cffmpeg_codec_flag_global_header()
    }
    var status = avcodec_open2(encoder, found, nil)
    guard status >= 0 else {
      throw .unsupportedFormat(
        "\(codec.name) cannot encode \(format.channels) channels at \(String(format: "%g", format.sampleRate / 1000)) kHz: \(FFmpegDecoder.describe(status))"
      )
    }
    avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
    stream.pointee.time_base = encoder.pointee.time_base

    var inputLayout = AVChannelLayout()
    av_channel_layout_default(&inputLayout, Int32(format.channels))
    defer { av_channel_layout_uninit(&inputLayout) }
    status = swr_alloc_set_opts2(
      &converter, &encoder.pointee.ch_layout, encoder.pointee.sample_fmt, rate, &inputLayout, AV_SAMPLE_FMT_FLT, rate,
      0, nil)
    if status >= 0, let converter { status = swr_init(converter) }
    guard status >= 0, let converter else { throw .writeFailed(path: path, detail: FFmpegDecoder.describe(status)) }

    status = avio_open(&output.pointee.pb, path, AVIO_FLAG_WRITE)
    guard status >= 0 else { throw .writeFailed(path: path, detail: FFmpegDecoder.describe(status)) }
    var options: OpaquePointer?
    defer { av_dict_free(&options) }
    if String(cString: output.pointee.oformat.pointee.name) == "ipod" {
      av_dict_set(&options, "movflags", "+empty_moov+delay_moov+default_base_moof", 0)
      av_dict_set(&options, "frag_duration", "1000000", 0)
    }
    status = avformat_write_header(output, &options)
    guard status >= 0 else { throw .writeFailed(path: path, detail: FFmpegDecoder.describe(status)) }
    avio_flush(output.pointee.pb)
    done = true
    return Opened(
      output: output, encoder: encoder, converter: converter, stream: stream, packet: packet, frame: frame,
      takesShortLastFrame: found.pointee.capabilities & cffmpeg_codec_cap_small_last_frame() != 0)
  }

  deinit {
    try? close()
    Self.free(packet: packet, frame: frame)
  }

  /// Appends `buffer`, which must be in the writer's format: whole encoder frames go to the
  /// file at once, the rest waits for the next buffer or ``close()``.
  func write(_ buffer: AudioBuffer) throws(AudioIOError) {
    precondition(buffer.format == format, "buffer format \(buffer.format) differs from the file's \(format)")
    guard output != nil else { throw .writeFailed(path: url.path, detail: "the file is closed") }
    pending += buffer.samples
    framesWritten += buffer.frameLength
    let whole = pending.count / format.channels / frameSize
    guard whole > 0 else { return }
    for index in 0..<whole {
      let start = index * frameSize * format.channels
      try encode(pending[start..<(start + frameSize * format.channels)])
    }
    pending.removeFirst(whole * frameSize * format.channels)
    if let output { avio_flush(output.pointee.pb) }
  }

  /// Everything encoded so far reaches the operating system with each ``write(_:)``; the samples
  /// short of a whole encoder frame wait for the next one.
  func flush() throws(AudioIOError) {}

  /// Encodes what is left, ends the stream and closes the file. Idempotent.
  func close() throws(AudioIOError) {
    guard let output else { return }
    defer { release() }
    if !pending.isEmpty {
      if padsLastFrame {
        pending += [Float](repeating: 0, count: frameSize * format.channels - pending.count)
      }
      try encode(pending[...])
      pending = []
    }
    try encode(nil)
    let status = av_write_trailer(output)
    guard status >= 0 else { throw .writeFailed(path: url.path, detail: FFmpegDecoder.describe(status)) }
  }

  /// Sends `samples` (interleaved, at most one frame) to the encoder, or nil to drain it, and
  /// writes the packets that come out.
  private func encode(_ samples: ArraySlice<Float>?) throws(AudioIOError) {
    guard let encoder, let output, let converter else { return }
    var status: Int32
    if let samples {
      let count = samples.count / format.channels
      frame.pointee.nb_samples = Int32(count)
      frame.pointee.format = encoder.pointee.sample_fmt.rawValue
      frame.pointee.sample_rate = encoder.pointee.sample_rate
      av_channel_layout_copy(&frame.pointee.ch_layout, &encoder.pointee.ch_layout)
      status = av_frame_get_buffer(frame, 0)
      if status >= 0 {
        status = samples.withUnsafeBufferPointer { input in
          var plane: UnsafePointer<UInt8>? = UnsafeRawPointer(input.baseAddress!).assumingMemoryBound(to: UInt8.self)
          return swr_convert(converter, frame.pointee.extended_data, Int32(count), &plane, Int32(count))
        }
      }
      frame.pointee.pts = framesEncoded
      framesEncoded += Int64(count)
      if status >= 0 { status = avcodec_send_frame(encoder, frame) }
      av_frame_unref(frame)
    } else {
      status = avcodec_send_frame(encoder, nil)
    }
    guard status >= 0 else { throw .writeFailed(path: url.path, detail: FFmpegDecoder.describe(status)) }
    while true {
      status = avcodec_receive_packet(encoder, packet)
      if status == cffmpeg_error_eagain() || status == cffmpeg_error_eof() { return }
      guard status >= 0 else { throw .writeFailed(path: url.path, detail: FFmpegDecoder.describe(status)) }
      av_packet_rescale_ts(packet, encoder.pointee.time_base, stream.pointee.time_base)
      packet.pointee.stream_index = stream.pointee.index
      status = av_interleaved_write_frame(output, packet)
      guard status >= 0 else { throw .writeFailed(path: url.path, detail: FFmpegDecoder.describe(status)) }
    }
  }

  /// The sample format to encode from: 16-bit integers for a lossless codec (32 would double
  /// the file for nothing: what is written was 16-bit or float audio), floats for a lossy one
  /// where it takes them, and otherwise the encoder's first.
  private static func preferredSampleFormat(of codec: UnsafePointer<AVCodec>, lossless: Bool) -> AVSampleFormat {
    var formats: [AVSampleFormat] = []
    if let list = codec.pointee.sample_fmts {
      while list[formats.count] != AV_SAMPLE_FMT_NONE { formats.append(list[formats.count]) }
    }
    let preferred = lossless ? [AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S16] : [AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT]
    return preferred.first(where: formats.contains) ?? formats.first ?? AV_SAMPLE_FMT_FLTP
  }

  /// Frees the encoder, the converter and the container, closing the file.
  private func release() {
    Self.release(output: &output, encoder: &encoder, converter: &converter)
  }

  /// Frees what is there of an encoder, a converter and a container (closing its file), and
  /// leaves each nil.
  private static func release(
    output: inout UnsafeMutablePointer<AVFormatContext>?, encoder: inout UnsafeMutablePointer<AVCodecContext>?,
    converter: inout OpaquePointer?
  ) {
    if converter != nil { swr_free(&converter) }
    if encoder != nil { avcodec_free_context(&encoder) }
    if let context = output {
      if context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
      avformat_free_context(context)
      output = nil
    }
  }

  private static func free(packet: UnsafeMutablePointer<AVPacket>, frame: UnsafeMutablePointer<AVFrame>) {
    var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
    av_packet_free(&packetPointer)
    var framePointer: UnsafeMutablePointer<AVFrame>? = frame
    av_frame_free(&framePointer)
  }
}
