import AudioIO
import Foundation
import TestSupport
import Testing

@Suite("Decoding audio files")
struct AudioFileTests {
  /// Every container and codec people record voice notes in, made from jfk.wav at test time.
  static let formats: [(name: String, arguments: [String], codec: String)] = [
    ("pcm16.wav", ["-c:a", "pcm_s16le"], "pcm_s16le"),
    ("float-48k-stereo.wav", ["-c:a", "pcm_f32le", "-ar", "48000", "-ac", "2"], "pcm_f32le"),
    ("lossless.flac", ["-c:a", "flac", "-ar", "44100"], "flac"),
    ("speech.mp3", ["-c:a", "libmp3lame", "-b:a", "64k", "-ar", "44100"], "mp3"),
    ("speech.ogg", ["-c:a", "libvorbis", "-ar", "44100"], "vorbis"),
    ("speech.opus", ["-c:a", "libopus", "-b:a", "32k"], "opus"),
    ("phone-aac.m4a", ["-c:a", "aac", "-b:a", "64k", "-ar", "44100", "-ac", "2"], "aac"),
    ("phone-alac.m4a", ["-c:a", "alac"], "alac"),
  ]

  @Test("decodes every supported format to 16 kHz mono of the right length", arguments: formats.map(\.name))
  func decodesFormat(name: String) throws {
    let folder = Fixtures.temporaryFolder("formats")
    defer { try? FileManager.default.removeItem(at: folder) }
    let format = try #require(Self.formats.first { $0.name == name })
    let file = folder.appendingPathComponent(format.name)
    try Fixtures.encode(Fixtures.jfk, to: file, format.arguments)

    let audio = try AudioFile(forReading: file)
    #expect(audio.codecName == format.codec)
    #expect(abs(audio.duration - 11.0) < 0.1)
    let buffer = try audio.read()
    #expect(buffer.format == .speechAnalysis)
    #expect(abs(buffer.duration - 11.0) < 0.1, "decoded \(buffer.duration) s")
    let peak = buffer.samples.map(abs).max() ?? 0
    #expect(peak > 0.1 && peak <= 1.5, "peak \(peak): the audio should be speech, not silence or noise")
  }

  @Test("reports the stored format of the file")
  func reportsFileFormat() throws {
    let folder = Fixtures.temporaryFolder("format")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("stereo.flac")
    try Fixtures.encode(Fixtures.jfk, to: file, ["-ar", "44100", "-ac", "2"])
    let audio = try AudioFile(forReading: file)
    #expect(audio.fileFormat == AudioFormat(sampleRate: 44_100, channelCount: 2))
    #expect(audio.containerName == "flac")
    #expect(abs(Double(audio.length) - 11.0 * 44_100) < 44_100 * 0.1)
    let stereo = try audio.read(format: AudioFormat(sampleRate: 8_000, channelCount: 2))
    #expect(stereo.format.channels == 2)
    #expect(abs(stereo.duration - 11.0) < 0.1)
  }

  @Test("a missing file names the path")
  func missingFile() {
    let path = "/nonexistent/voice-memo.m4a"
    #expect(throws: AudioIOError.fileNotFound(path: path)) { try AudioFile(forReading: URL(fileURLWithPath: path)) }
  }

  @Test("an empty file, a folder, a text file and a damaged file each give their own error")
  func badFiles() throws {
    let folder = Fixtures.temporaryFolder("bad")
    defer { try? FileManager.default.removeItem(at: folder) }

    let empty = folder.appendingPathComponent("empty.wav")
    _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
    #expect(throws: AudioIOError.emptyFile(path: empty.path)) { try AudioFile(forReading: empty) }

    #expect(throws: AudioIOError.isDirectory(path: folder.path)) { try AudioFile(forReading: folder) }

    let text = folder.appendingPathComponent("notes.txt")
    try Data("Shopping list: milk, eggs, bread.\n".utf8).write(to: text)
    let textError = try #require(throws: AudioIOError.self) { try AudioFile(forReading: text).read() }
    switch textError {
    case .noAudioStream, .notAudio: break
    default: Issue.record("a text file should be reported as not audio, got \(textError)")
    }

    var noise = [UInt8](repeating: 0, count: 64_000)
    var generator = SystemRandomNumberGenerator()
    for index in noise.indices { noise[index] = UInt8.random(in: 0...255, using: &generator) }
    let damaged = folder.appendingPathComponent("damaged.m4a")
    try Data(noise).write(to: damaged)
    #expect(throws: AudioIOError.self) { try AudioFile(forReading: damaged).read() }

    for file in [empty, text, damaged] {
      do {
        _ = try AudioFile(forReading: file).read()
      } catch {
        let message = error.localizedDescription
        #expect(message.hasPrefix(file.path), "the message names the file: \(message)")
        #expect(!message.contains("\n"), "one line: \(message)")
      }
    }
  }

  /// Found by fuzzing (Fuzz/Corpus/AudioFile/impossible-sample-rate): a 145-byte WAV whose header
  /// declares 1,862,286,976 Hz made decoding allocate about 2 GB for the resampler's filter.
  @Test("a header with an impossible sample rate is a damaged file, refused before decoding")
  func impossibleSampleRate() throws {
    let folder = Fixtures.temporaryFolder("rate")
    defer { try? FileManager.default.removeItem(at: folder) }
    func header(rate: UInt32) -> Data {
      var data = Data("RIFF".utf8)
      func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
      }
      append(UInt32(136))
      data.append(contentsOf: Array("WAVEfmt ".utf8))
      append(UInt32(16))
      append(UInt16(1))
      append(UInt16(1))
      append(rate)
      append(rate &* 2)
      append(UInt16(2))
      append(UInt16(16))
      data.append(contentsOf: Array("data".utf8))
      append(UInt32(100))
      return data + Data(repeating: 0x11, count: 100)
    }
    let file = folder.appendingPathComponent("impossible-rate.wav")
    try header(rate: 1_862_286_976).write(to: file)
    #expect(
      throws: AudioIOError.corrupt(
        path: file.path, detail: "the stream declares an impossible sample rate of 1862286976 Hz")
    ) {
      try AudioFile(forReading: file)
    }
    let highest = folder.appendingPathComponent("768k.wav")
    try header(rate: 768_000).write(to: highest)
    #expect(try AudioFile(forReading: highest).fileFormat.sampleRate == 768_000)
  }

  /// Found by fuzzing (Fuzz/Corpus/AudioFile/huge-declared-duration, after its first byte, which
  /// only selects the fuzz case): a 2 kB MP3 whose header declares 13 days made decoding reserve
  /// 74 GB of samples up front, and the allocation failure crashed the process.
  @Test("a header that declares days of audio in a few bytes decodes what is there")
  func hugeDeclaredDuration() throws {
    let folder = Fixtures.temporaryFolder("duration")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = try Data(
      contentsOf: Fixtures.root.appendingPathComponent("Fuzz/Corpus/AudioFile/huge-declared-duration"))
    let file = folder.appendingPathComponent("damaged.mp3")
    try input.dropFirst().write(to: file)
    let audio = try AudioFile(forReading: file)
    #expect(audio.duration > 1_000_000)
    let samples = try? audio.read().samples.count
    #expect((samples ?? 0) < 16_000 * 60, "\(samples ?? 0) samples from 2 kB")
  }

  /// Found by fuzzing (Fuzz/Corpus/AudioFile/layout-change, after its first byte): an MPEG stream
  /// whose frames change from stereo to mono made the resampler, made for stereo, read a missing
  /// plane (a segmentation fault in libswresample).
  @Test("a stream whose frames change shape midway decodes without crashing")
  func framesChangingShape() throws {
    let folder = Fixtures.temporaryFolder("shape")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = try Data(contentsOf: Fixtures.root.appendingPathComponent("Fuzz/Corpus/AudioFile/layout-change"))
    let file = folder.appendingPathComponent("damaged.mp3")
    try input.dropFirst().write(to: file)
    _ = try? AudioFile(forReading: file).read()
  }
}
