import Foundation
import TestSupport
import Testing

@testable import AudioIO

/// Files written in a compressed format, as settings with `kAudioFormatMPEG4AAC` and the other
/// format IDs ask: each is really encoded (FFmpeg reads back that codec), lasts as long as what
/// was written, and sounds like it (lossless ones sample for sample).
@Suite("Writing compressed audio files")
struct AudioEncodingTests {
  /// jfk.wav at `rate`, mono.
  static func speech(at rate: Double) throws -> AudioBuffer {
    try AudioFile(forReading: Fixtures.jfk).read(format: AudioFormat(sampleRate: rate, channelCount: 1))
  }

  /// Writes `audio` through `AVAudioFile(forWriting:settings:)` in pieces of 1,000 frames, as a
  /// tap hands them over, and closes the file.
  static func write(_ audio: AudioBuffer, to url: URL, settings: [String: Any]) throws {
    let file = try AVAudioFile(forWriting: url, settings: settings)
    var start = 0
    while start < audio.frameLength {
      let end = min(start + 1_000, audio.frameLength)
      try file.write(from: AVAudioPCMBuffer(audio.frames(start..<end)))
      start = end
    }
    file.close()
  }

  /// The normalised correlation of `a` and `b` over their common length, after shifting `b` by
  /// up to `lag` frames either way (an encoder that delays or trims its first samples by more
  /// shows as a low correlation).
  static func correlation(_ a: [Float], _ b: [Float], lag: Int = 16) -> (value: Float, shift: Int) {
    var best: (value: Float, shift: Int) = (-1, 0)
    for shift in stride(from: -lag, through: lag, by: 1) {
      var dot: Float = 0
      var aa: Float = 0
      var bb: Float = 0
      let lower = max(0, -shift)
      let upper = min(a.count, b.count - shift)
      guard upper - lower > 1_000 else { continue }
      for index in stride(from: lower, to: upper, by: 4) {
        dot += a[index] * b[index + shift]
        aa += a[index] * a[index]
        bb += b[index + shift] * b[index + shift]
      }
      let value = dot / max((aa * bb).squareRoot(), .leastNormalMagnitude)
      if value > best.value { best = (value, shift) }
    }
    return best
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var file: String
    var formatID: AudioFormatID
    var rate: Double
    var codec: String
    var lossless: Bool
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "AAC in .m4a", file: "memo.m4a", formatID: kAudioFormatMPEG4AAC, rate: 12_000, codec: "aac", lossless: false
    ),
    Case(
      name: "Apple Lossless in .m4a", file: "lossless.m4a", formatID: kAudioFormatAppleLossless, rate: 16_000,
      codec: "alac",
      lossless: true),
    Case(name: "FLAC", file: "memo.flac", formatID: kAudioFormatFLAC, rate: 16_000, codec: "flac", lossless: true),
    Case(
      name: "Opus in .ogg", file: "memo.ogg", formatID: kAudioFormatOpus, rate: 16_000, codec: "opus", lossless: false),
    Case(name: "MP3", file: "memo.mp3", formatID: kAudioFormatMPEGLayer3, rate: 16_000, codec: "mp3", lossless: false),
    Case(
      name: "µ-law in .wav", file: "memo.wav", formatID: kAudioFormatULaw, rate: 8_000, codec: "pcm_mulaw",
      lossless: false),
    Case(
      name: "IMA 4:1 in .caf", file: "memo.caf", formatID: kAudioFormatAppleIMA4, rate: 16_000, codec: "adpcm_ima_qt",
      lossless: false),
  ]

  @Test("each format ID is encoded as that codec, as long as what was written, and sounds like it", arguments: cases)
  func encodes(_ format: Case) throws {
    let folder = Fixtures.temporaryFolder("encode")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent(format.file)
    let speech = try Self.speech(at: format.rate)
    try Self.write(
      speech, to: url,
      settings: [AVFormatIDKey: format.formatID, AVSampleRateKey: format.rate, AVNumberOfChannelsKey: 1])

    let file = try AudioFile(forReading: url)
    #expect(file.codecName == format.codec, "\(format.name): stored as \(file.codecName) in \(file.containerName)")
    // Opus always decodes at 48 kHz, whatever the rate it was given.
    #expect(
      file.fileFormat.sampleRate == (format.codec == "opus" ? 48_000 : format.rate) && file.fileFormat.channels == 1)
    #expect(
      abs(file.duration - speech.duration) < 0.1, "\(format.name): declares \(file.duration) s for \(speech.duration)")
    let decoded = try file.read(format: AudioFormat(sampleRate: format.rate, channelCount: 1))
    // FLAC, MP3 and Opus files (and MP4 by its duration) mark the end of the audio; a WAV or CAF
    // file of µ-law or IMA blocks has whole blocks.
    let padding = format.codec == "adpcm_ima_qt" ? 64 : 0
    #expect(
      (speech.frameLength...(speech.frameLength + padding)).contains(decoded.frameLength),
      "\(format.name): \(decoded.frameLength) frames decoded for \(speech.frameLength) written")
    let wavSize = 44 + speech.frameLength * 2
    let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
    if format.lossless {
      let step: Float = 1.5 / 32_768
      let largest = zip(decoded.samples, speech.samples).map { abs($0 - $1) }.max() ?? 1
      #expect(largest <= step, "\(format.name): sample for sample within a 16-bit step, largest difference \(largest)")
      #expect(size < wavSize, "\(format.name): \(size) bytes, the WAV would be \(wavSize)")
    } else {
      let match = Self.correlation(speech.samples, decoded.samples)
      #expect(match.value > 0.9, "\(format.name): correlation \(match.value) at a shift of \(match.shift) frames")
      #expect(abs(match.shift) <= 1, "\(format.name): the decoded audio is \(match.shift) frames late")
      #expect(size <= wavSize / 2 + 100, "\(format.name): \(size) bytes, the WAV would be \(wavSize)")
    }
  }

  @Test("an AAC file cut off mid-way (a crash) still plays up to its last fragment")
  func aacCutShort() throws {
    let folder = Fixtures.temporaryFolder("encode-cut")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("memo.m4a")
    let speech = try Self.speech(at: 16_000)
    let writer = try FFmpegEncoder(url: url, format: speech.format, codec: .aac)
    try writer.write(speech.frames(0..<(16_000 * 5)))
    // What a process killed now would leave: the bytes on disk, the file never closed.
    let cut = folder.appendingPathComponent("cut.m4a")
    try FileManager.default.copyItem(at: url, to: cut)
    try writer.close()
    let left = try AudioFile(forReading: cut).read()
    #expect(left.duration >= 3.5 && left.duration <= 5.1, "\(left.duration) s of the 5 s written survive")
  }

  @Test("an AAC file let go without close(), as Apple's code leaves them, is finished whole")
  func aacReleased() throws {
    let folder = Fixtures.temporaryFolder("encode-released")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("memo.m4a")
    let speech = try Self.speech(at: 16_000)
    do {
      let file = try AVAudioFile(
        forWriting: url,
        settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 16_000, AVNumberOfChannelsKey: 1])
      try file.write(from: AVAudioPCMBuffer(speech))
    }
    let decoded = try AudioFile(forReading: url).read()
    #expect(decoded.frameLength == speech.frameLength, "\(decoded.frameLength) frames for \(speech.frameLength)")
  }

  @Test("a rate the codec does not take, or a bad format ID, is one line saying what to use")
  func refusals() throws {
    let folder = Fixtures.temporaryFolder("encode-refused")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("memo.ogg")
    let opus: [String: Any] = [AVFormatIDKey: kAudioFormatOpus, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 1]
    #expect {
      _ = try AVAudioFile(forWriting: url, settings: opus)
    } throws: { error in
      let message = (error as? AudioIOError)?.errorDescription ?? ""
      return message.contains("Opus records at 8, 12, 16, 24, 48 kHz, not 44.1 kHz") && !message.contains("\n")
    }
    let recorder = try AVAudioRecorder(url: url, settings: opus)
    #expect(!recorder.record())
    let reason = recorder.recordingError?.localizedDescription ?? ""
    #expect(reason.contains("44.1 kHz"), "\(reason)")
  }
}
