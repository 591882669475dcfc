import AudioIO
import Foundation

/// ALSA capture devices that play known audio: each is an ALSA `file` PCM reading a raw PCM file
/// (over a `null` slave), wrapped in `plug` with the file's exact format as its slave format.
///
/// Capture turns off plug's automatic conversions, so each device behaves like a sound card that
/// records only that format. One configuration defines every device; it is written once and
/// named by `ALSA_CONFIG_PATH` before the tests make their first ALSA call, so every test in the
/// process sees the same devices. Every plug converts rates with ALSA's own linear converter:
/// left to choose, alsa-lib takes speexrate when libasound2-plugins is installed (PulseAudio
/// brings it), whose longer delay moved played audio out of step with what was recorded. The
/// file plugin is not paced by a clock and, after the end of its file, repeats the last buffer:
/// tests record a fixed duration or stop by themselves.
public enum MicrophoneCaptureTestDevices {
  /// One test device: its ALSA name, what it records, and the samples capture should see.
  public struct Device: Sendable {
    /// The ALSA PCM name.
    public let name: String
    /// The hint description `inputDevices()` should report.
    public let description: String
    /// The device's rate and channel count.
    public let format: AudioFormat
    /// The raw encoding in the file, as ALSA names it.
    public let encoding: String
    /// The samples as capture should decode them (the file's integers scaled to -1...1).
    public let samples: [Float]

    /// The recorded audio as a buffer in the device's format.
    public var buffer: AudioBuffer { AudioBuffer(format: format, samples: samples) }
    /// Seconds of audio in the file.
    public var duration: Double { Double(samples.count / format.channels) / format.sampleRate }
  }

  /// A 0.503 s 1 kHz tone at 16 kHz mono, 16-bit: the `default` device.
  public static var standard: Device { ready.devices[0] }
  /// A 1.505 s 440 Hz tone in both channels at 48 kHz stereo, 16-bit.
  public static var tone48k: Device { ready.devices[1] }
  /// jfk.wav (11 s of speech) at 44.1 kHz mono, 32-bit.
  public static var speech44k: Device { ready.devices[2] }
  /// 1 s at 22.05 kHz stereo, float: 300 Hz on the left, a quieter 1 kHz on the right.
  public static var float22k: Device { ready.devices[3] }
  /// A 1 s 250 Hz tone at 32 kHz mono, 24-bit packed in three bytes.
  public static var packed24: Device { ready.devices[4] }
  /// A 1 s 400 Hz tone at 8 kHz mono in mu-law, which capture cannot read itself (plug decodes it).
  public static var muLaw8k: Device { ready.devices[5] }
  /// A device that accepts only mu-law and has no plug in front: nothing capture can record.
  public static let muLawOnlyName = "vn_mulaw_only"

  // The tones' lengths are deliberately not whole numbers of 20 ms periods, so the last read
  // must be cut short for a recording of their duration to come out exact.

  /// A device that records whatever ``play(_:sampleRate:)`` last gave it for 16 kHz, at 16 kHz
  /// mono, 16-bit.
  public static let playbackName = "vn_playback"
  /// A device that records whatever ``play(_:sampleRate:)`` last gave it for 44.1 kHz, at
  /// 44.1 kHz mono, 16-bit: a microphone whose rate is not the analyzer's.
  public static let playback44kName = "vn_playback44k"

  /// The playback devices: their names and rates.
  private static let playbackDevices: [(name: String, rate: Int, description: String)] = [
    (playbackName, 16_000, "Test playback"), (playback44kName, 44_100, "Test playback, 44.1 kHz"),
  ]

  /// Makes a playback device record `buffer` (converted to mono at `sampleRate`, 16 000 or 44 100)
  /// the next time it is opened, and returns that device; after the audio it repeats its last
  /// period, like the other devices.
  public static func play(_ buffer: AudioBuffer, sampleRate: Double = 16_000) throws -> AudioInputDevice {
    try install()
    guard let device = playbackDevices.first(where: { Double($0.rate) == sampleRate }) else {
      throw AudioIOError.unsupportedFormat(
        "no test playback device records \(sampleRate) Hz; use one of \(playbackDevices.map(\.rate))")
    }
    let format = AudioFormat(sampleRate: sampleRate, channelCount: 1)
    var audio = buffer
    if buffer.format != format {
      let converter = try AudioConverter(from: buffer.format, to: format)
      audio = converter.convert(buffer)
      audio.samples += converter.finish().samples
    }
    try encode(audio.samples, as: "S16_LE").0.write(
      to: ready.folder.appendingPathComponent("\(device.name).raw"), options: .atomic)
    return AudioInputDevice(name: device.name, description: device.description)
  }

  /// A playback device that writes what is played to a file, as 16 kHz mono 16-bit.
  public static let speakerName = "vn_speaker"

  /// Empties what ``speakerName`` has recorded so far.
  public static func clearSpeaker() throws {
    try install()
    try Data().write(to: ready.folder.appendingPathComponent("\(speakerName).raw"), options: .atomic)
  }

  /// What was played through ``speakerName`` since ``clearSpeaker()``, as 16 kHz mono samples.
  public static func speakerOutput() throws -> AudioBuffer {
    let data = try Data(contentsOf: ready.folder.appendingPathComponent("\(speakerName).raw"))
    let samples = data.withUnsafeBytes { raw in
      raw.bindMemory(to: Int16.self).map { Float(Int16(littleEndian: $0)) / 32_768 }
    }
    return AudioBuffer(format: .speechAnalysis, samples: samples)
  }

  /// Makes sure the devices exist; call before anything that touches ALSA.
  public static func install() throws {
    _ = try result.get()
  }

  private static var ready: (folder: URL, devices: [Device]) { try! result.get() }

  private static let result: Result<(folder: URL, devices: [Device]), any Error> = Result { try build() }

  private static func build() throws -> (folder: URL, devices: [Device]) {
    // A fixed folder, rewritten atomically by every run: the files must outlive every test in the
    // process, and their content is the same each time, so runs neither pile up nor disturb each other.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "voicenotes-alsa-test-devices", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let speech = try AudioFile(forReading: Fixtures.jfk).read(format: AudioFormat(sampleRate: 44_100, channelCount: 1))
    let sources: [(name: String, description: String, format: AudioFormat, encoding: String, samples: [Float])] = [
      ("default", "Test default input", .speechAnalysis, "S16_LE", tone([1_000], seconds: 0.503, rate: 16_000)),
      (
        "vn_tone48k", "Test tone, 48 kHz stereo", AudioFormat(sampleRate: 48_000, channelCount: 2), "S16_LE",
        tone([440, 440], seconds: 1.505, rate: 48_000)
      ),
      ("vn_speech44k", "Speech, 44.1 kHz", AudioFormat(sampleRate: 44_100, channelCount: 1), "S32_LE", speech.samples),
      (
        "vn_float22k", "Two tones, 22.05 kHz float", AudioFormat(sampleRate: 22_050, channelCount: 2), "FLOAT_LE",
        tone([300, 1_000], amplitudes: [0.5, 0.2], seconds: 1, rate: 22_050)
      ),
      (
        "vn_packed24", "Tone, 24-bit packed", AudioFormat(sampleRate: 32_000, channelCount: 1), "S24_3LE",
        tone([250], seconds: 1, rate: 32_000)
      ),
      (
        "vn_mulaw8k", "Tone, mu-law", AudioFormat(sampleRate: 8_000, channelCount: 1), "MU_LAW",
        tone([400], seconds: 1, rate: 8_000)
      ),
    ]
    var devices: [Device] = []
    var configuration = ""
    for source in sources {
      let raw = folder.appendingPathComponent("\(source.name).raw")
      let (data, decoded) = encode(source.samples, as: source.encoding)
      try data.write(to: raw, options: .atomic)
      devices.append(
        Device(
          name: source.name, description: source.description, format: source.format, encoding: source.encoding,
          samples: decoded))
      configuration += """
        pcm.\(source.name)_file {
          type file
          slave.pcm { type null }
          file "/dev/null"
          infile "\(raw.path)"
          format "raw"
        }
        pcm.\(source.name) {
          type plug
          rate_converter "linear"
          slave {
            pcm "\(source.name)_file"
            format \(source.encoding)
            rate \(Int(source.format.sampleRate))
            channels \(source.format.channels)
          }
          hint { show on description "\(source.description)" }
        }

        """
    }
    // Each plays what play(_:sampleRate:) last wrote for it (silence until then).
    for (name, rate, description) in playbackDevices {
      let playback = folder.appendingPathComponent("\(name).raw")
      try Data(count: rate / 5).write(to: playback, options: .atomic)
      configuration += """
        pcm.\(name)_file {
          type file
          slave.pcm { type null }
          file "/dev/null"
          infile "\(playback.path)"
          format "raw"
        }
        pcm.\(name) {
          type plug
          rate_converter "linear"
          slave { pcm "\(name)_file" format S16_LE rate \(rate) channels 1 }
          hint { show on description "\(description)" }
        }

        """
    }
    // Writes what is played to a file.
    configuration += """
      pcm.\(speakerName)_file {
        type file
        slave.pcm { type null }
        file "\(folder.appendingPathComponent("\(speakerName).raw").path)"
        format "raw"
      }
      pcm.\(speakerName) {
        type plug
        rate_converter "linear"
        slave { pcm "\(speakerName)_file" format S16_LE rate 16000 channels 1 }
        hint { show on description "Test speaker" }
      }

      """
    // Only mu-law on the client side, and no plug to convert it.
    configuration += """
      pcm.\(muLawOnlyName) {
        type mulaw
        slave { pcm "vn_mulaw8k_file" format S16_LE }
        hint { show on description "Mu-law only" }
      }

      """
    let path = folder.appendingPathComponent("asound.conf")
    try configuration.write(to: path, atomically: true, encoding: .utf8)
    setenv("ALSA_CONFIG_PATH", path.path, 1)
    return (folder, devices)
  }

  /// Sine tones, one frequency per channel, interleaved.
  public static func tone(_ frequencies: [Double], amplitudes: [Double]? = nil, seconds: Double, rate: Double)
    -> [Float]
  {
    let frames = Int(seconds * rate)
    var samples: [Float] = []
    samples.reserveCapacity(frames * frequencies.count)
    for frame in 0..<frames {
      for (channel, frequency) in frequencies.enumerated() {
        let amplitude = amplitudes?[channel] ?? 0.5
        samples.append(Float(amplitude * sin(2 * .pi * frequency * Double(frame) / rate)))
      }
    }
    return samples
  }

  /// The raw little-endian bytes of `samples` in `encoding`, and the samples as they decode again.
  private static func encode(_ samples: [Float], as encoding: String) -> (Data, [Float]) {
    var data = Data()
    var decoded: [Float] = []
    for sample in samples {
      let clipped = Double(max(-1, min(1, sample)))
      switch encoding {
      case "S16_LE":
        let value = Int16((clipped * 32_767).rounded())
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        decoded.append(Float(value) / 32_768)
      case "S32_LE":
        let value = Int32((clipped * 2_147_483_647).rounded())
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        decoded.append(Float(value) / 2_147_483_648)
      case "S24_3LE":
        let value = Int32((clipped * 8_388_607).rounded())
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0.prefix(3)) }
        decoded.append(Float(value) / 8_388_608)
      case "FLOAT_LE":
        withUnsafeBytes(of: sample.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        decoded.append(sample)
      default:  // MU_LAW; ALSA decodes it, so the original samples are the reference.
        data.append(muLaw(clipped))
        decoded.append(sample)
      }
    }
    return (data, decoded)
  }

  /// G.711 mu-law encoding of one sample.
  private static func muLaw(_ sample: Double) -> UInt8 {
    var magnitude = Int((abs(sample) * 32_767).rounded())
    let sign = sample < 0 ? 0x80 : 0
    magnitude = min(magnitude, 32_635) + 0x84
    var exponent = 7
    while exponent > 0, magnitude & (0x80 << exponent) == 0 { exponent -= 1 }
    let mantissa = (magnitude >> (exponent + 3)) & 0x0F
    return ~UInt8(sign | exponent << 4 | mantissa)
  }
}
