import AudioIO
import Foundation

/// Audio decoding through FFmpeg, and the WAV writer read back by the decoder.
///
/// The first byte picks the case. Even: the rest of the input is a file (its name's extension one
/// of ``AudioFile/commonExtensions`` or none, from the same byte) opened, measured and decoded to
/// 16 kHz mono. Odd: the next bytes give a format (rate, channels, sample encoding, writer) and the
/// rest are samples (Float bit patterns, NaN and infinities included), written as a WAV file and
/// read back: the decoder must see the same format and the same number of frames, and the same
/// samples (exactly for 32-bit float, to within one step for 16-bit, after clamping to -1...1).
enum AudioFileFuzz {
  static func run(_ data: Data) {
    var reader = ByteReader(data)
    let selector = reader.byte()
    if selector & 1 == 0 {
      decode(reader.rest(), extensionIndex: Int(selector >> 1))
    } else {
      roundTrip(&reader, selector: selector)
    }
  }

  private static func decode(_ bytes: Data, extensionIndex: Int) {
    let extensions = AudioFile.commonExtensions
    let name = extensionIndex < extensions.count ? "input.\(extensions[extensionIndex])" : "input"
    let url = FuzzFolder.file(name)
    guard (try? bytes.write(to: url)) != nil else { return }
    defer { try? FileManager.default.removeItem(at: url) }
    guard let file = try? AudioFile(forReading: url) else { return }
    _ = file.length
    _ = file.fileFormat.description
    guard let buffer = try? file.read() else { return }
    fuzzCheck(buffer.format == .speechAnalysis, "decoded to \(buffer.format), not 16 kHz mono")
  }

  private static let rates: [Double] = [8000, 11025, 16000, 22050, 44100, 48000, 96000]

  private static func roundTrip(_ reader: inout ByteReader, selector: UInt8) {
    let rateByte = reader.byte()
    let rate = rateByte < 200 ? rates[Int(rateByte) % rates.count] : Double(1 + Int(reader.uint16()) * 3)
    let format = AudioFormat(sampleRate: rate, channelCount: 1 + Int(selector >> 3) % 4)
    let encoding: WAVWriter.SampleEncoding = selector & 2 == 0 ? .int16 : .float32
    let streamed = selector & 4 != 0
    let raw = reader.rest()
    let frames = raw.count / 4 / format.channels
    let samples = (0..<(frames * format.channels)).map { index in
      Float(bitPattern: raw.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self) })
    }
    let url = FuzzFolder.file("written.wav")
    defer { try? FileManager.default.removeItem(at: url) }
    let buffer = AudioBuffer(format: format, samples: samples)
    do {
      if streamed {
        let writer = try WAVWriter(url: url, format: format, encoding: encoding)
        let half = frames / 2 * format.channels
        try writer.write(AudioBuffer(format: format, samples: Array(samples[..<half])))
        try writer.write(AudioBuffer(format: format, samples: Array(samples[half...])))
        fuzzCheck(writer.framesWritten == frames, "the writer counts \(writer.framesWritten) frames, not \(frames)")
        try writer.close()
      } else {
        try WAVWriter.write(buffer, to: url, encoding: encoding)
      }
    } catch {
      fuzzCheck(false, "writing \(frames) frames of \(format) failed: \(error)")
    }
    guard frames > 0 else { return }
    let file: AudioFile
    let decoded: AudioBuffer
    do {
      file = try AudioFile(forReading: url)
      decoded = try file.read(format: format)
    } catch {
      fuzzCheck(false, "the decoder cannot read a WAV file of \(frames) frames of \(format): \(error)")
      return
    }
    fuzzCheck(file.fileFormat == format, "written as \(format), read as \(file.fileFormat)")
    fuzzCheck(abs(file.length - Int64(frames)) <= 1, "\(frames) frames written, \(file.length) declared")
    fuzzCheck(decoded.samples.count == samples.count, "\(samples.count) samples written, \(decoded.samples.count) read")
    for (written, read) in zip(samples, decoded.samples) {
      switch encoding {
      case .float32:
        fuzzCheck(written.bitPattern == read.bitPattern || (written.isNaN && read.isNaN), "\(written) read as \(read)")
      case .int16:
        let clamped = written.isNaN ? read : max(-1, min(1, written))
        fuzzCheck(abs(clamped - read) <= 1.0 / 16_000, "\(written) read as \(read)")
      }
    }
  }
}
