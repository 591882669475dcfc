import Foundation
import TestSupport
import Testing

@testable import AudioIO

/// Real ALSA capture calls against `file` devices that play known audio (see
/// ``MicrophoneCaptureTestDevices``). Serialized: the devices are cheap, but the machine is small.
@Suite("Recording from a microphone", .serialized, .timeLimit(.minutes(2)))
struct MicrophoneCaptureTests {
  private typealias Devices = MicrophoneCaptureTestDevices

  init() throws {
    try Devices.install()
  }

  /// Everything a stream delivers, joined.
  private func collect(_ stream: AsyncThrowingStream<AudioBuffer, any Error>, format: AudioFormat) async throws
    -> AudioBuffer
  {
    var samples: [Float] = []
    for try await buffer in stream {
      #expect(buffer.format == format)
      samples += buffer.samples
    }
    return AudioBuffer(format: format, samples: samples)
  }

  /// `source` converted in one piece, the way capture should convert it period by period.
  private func reference(_ source: AudioBuffer, to format: AudioFormat = .speechAnalysis) throws -> AudioBuffer {
    let converter = try AudioConverter(from: source.format, to: format)
    return AudioBuffer(format: format, samples: converter.convert(source).samples + converter.finish().samples)
  }

  private func largestDifference(_ one: [Float], _ other: [Float]) -> Float {
    zip(one, other).map { abs($0 - $1) }.max() ?? .infinity
  }

  private func upwardZeroCrossings(_ samples: [Float]) -> Int {
    zip(samples, samples.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
  }

  @Test("lists the configured capture devices, the default first")
  func listsDevices() {
    let devices = MicrophoneCapture.inputDevices()
    let names = devices.map(\.name)
    #expect(names.first == "default", "got \(names)")
    for device in [Devices.tone48k, Devices.speech44k, Devices.float22k, Devices.packed24, Devices.muLaw8k] {
      #expect(devices.contains(AudioInputDevice(name: device.name, description: device.description)), "\(names)")
    }
    #expect(names.contains(Devices.muLawOnlyName))
    #expect(!names.contains("vn_tone48k_file"), "PCMs without a hint are plumbing, not inputs")
  }

  @Test("the default device records its file exactly, already in the analyzer's format")
  func defaultDevice() async throws {
    let microphone = try MicrophoneCapture()
    #expect(microphone.device.isDefault)
    #expect(microphone.deviceFormat == .speechAnalysis)
    #expect(microphone.deviceSampleFormat == .int16)
    #expect(microphone.outputFormat == .speechAnalysis)
    let recorded = try await collect(microphone.start(forDuration: Devices.standard.duration), format: .speechAnalysis)
    #expect(recorded.samples == Devices.standard.samples)
    #expect(!microphone.isCapturing)
  }

  @Test("a 48 kHz stereo 16-bit device becomes 16 kHz mono with the same pitch and samples")
  func stereo48k() async throws {
    let source = Devices.tone48k
    let microphone = try MicrophoneCapture(device: AudioInputDevice(name: source.name))
    #expect(microphone.deviceFormat == source.format)
    #expect(microphone.deviceSampleFormat == .int16)
    let recorded = try await collect(microphone.start(forDuration: source.duration), format: .speechAnalysis)
    #expect(abs(recorded.frameLength - 24_080) <= 16, "1.505 s at 16 kHz, got \(recorded.frameLength) frames")
    let crossings = upwardZeroCrossings(recorded.samples)
    #expect(abs(crossings - 662) <= 2, "a 440 Hz tone rises through zero 662 times in 1.505 s, got \(crossings)")
    let expected = try reference(source.buffer)
    #expect(recorded.frameLength == expected.frameLength)
    #expect(largestDifference(recorded.samples, expected.samples) < 1e-4)
  }

  @Test("speech from a 44.1 kHz mono 32-bit device matches the file converted the same way")
  func speech44k() async throws {
    let source = Devices.speech44k
    let microphone = try MicrophoneCapture(device: AudioInputDevice(name: source.name))
    #expect(microphone.deviceFormat == AudioFormat(sampleRate: 44_100, channelCount: 1))
    #expect(microphone.deviceSampleFormat == .int32)
    let recorded = try await collect(microphone.start(forDuration: source.duration), format: .speechAnalysis)
    let expected = try reference(source.buffer)
    #expect(recorded.frameLength == expected.frameLength)
    #expect(abs(recorded.duration - 11) < 0.01, "got \(recorded.duration) s")
    #expect(largestDifference(recorded.samples, expected.samples) < 1e-4)
    let peak = recorded.samples.map(abs).max() ?? 0
    #expect(peak > 0.1, "peak \(peak): the recording should be speech, not silence")
  }

  @Test("a float stereo device keeps its channels apart, and any output format can be asked for")
  func floatStereo() async throws {
    let source = Devices.float22k
    let device = AudioInputDevice(name: source.name)
    let native = try MicrophoneCapture(device: device, outputFormat: source.format)
    #expect(native.deviceSampleFormat == .float32)
    #expect(native.deviceFormat == source.format)
    let untouched = try await collect(native.start(forDuration: source.duration), format: source.format)
    #expect(untouched.samples == source.samples, "the same format must pass through bit for bit")

    let microphone = try MicrophoneCapture(device: device)
    let recorded = try await collect(microphone.start(forDuration: source.duration), format: .speechAnalysis)
    let expected = try reference(source.buffer)
    #expect(recorded.frameLength == expected.frameLength)
    #expect(largestDifference(recorded.samples, expected.samples) < 1e-4)
  }

  @Test("a 24-bit packed device is decoded correctly")
  func packed24() async throws {
    let source = Devices.packed24
    let microphone = try MicrophoneCapture(device: AudioInputDevice(name: source.name))
    #expect(microphone.deviceSampleFormat == .packedInt24)
    #expect(microphone.deviceFormat == source.format)
    let recorded = try await collect(microphone.start(forDuration: source.duration), format: .speechAnalysis)
    let expected = try reference(source.buffer)
    #expect(recorded.frameLength == expected.frameLength)
    #expect(largestDifference(recorded.samples, expected.samples) < 1e-4)
  }

  @Test("a device in an encoding capture cannot read is recorded through ALSA's conversion")
  func muLawThroughPlug() async throws {
    let source = Devices.muLaw8k
    let microphone = try MicrophoneCapture(device: AudioInputDevice(name: source.name))
    #expect(microphone.deviceFormat == source.format, "the device's own rate and channels are kept")
    let recorded = try await collect(microphone.start(forDuration: source.duration), format: .speechAnalysis)
    #expect(abs(recorded.frameLength - 16_000) <= 16, "got \(recorded.frameLength) frames")
    let crossings = upwardZeroCrossings(recorded.samples)
    #expect(abs(crossings - 400) <= 2, "a 400 Hz tone rises through zero 400 times a second, got \(crossings)")
  }

  @Test("an unknown device name says so")
  func unknownDevice() {
    let name = "vn_no_such_microphone"
    #expect(throws: MicrophoneError.deviceNotFound(device: name)) {
      try MicrophoneCapture(device: AudioInputDevice(name: name))
    }
    let message = MicrophoneError.deviceNotFound(device: name).localizedDescription
    #expect(message.contains(name) && message.contains("arecord -L"))
  }

  @Test("a device with no format capture can handle gives unsupportedFormat, naming what it offers")
  func unsupportedFormat() {
    do {
      _ = try MicrophoneCapture(device: AudioInputDevice(name: Devices.muLawOnlyName))
      Issue.record("a mu-law-only device was accepted")
    } catch {
      guard case .unsupportedFormat(let device, let detail) = error else {
        Issue.record("expected unsupportedFormat, got \(error)")
        return
      }
      #expect(device == Devices.muLawOnlyName)
      #expect(detail.contains("MU_LAW"), "\(detail)")
      #expect(error.localizedDescription.contains("plug:\(Devices.muLawOnlyName)"))
    }
  }

  // No sound card here, so EBUSY and a missing default cannot be provoked through ALSA (the file
  // plugin opens any number of times): this checks how ALSA's codes map to errors and messages.
  @Test("busy, missing and forbidden devices map to their own errors")
  func openErrorMapping() {
    let busy = MicrophoneError.opening("hw:1,0", code: -EBUSY, detail: "Device or resource busy")
    #expect(busy == .deviceBusy(device: "hw:1,0"))
    #expect(busy.localizedDescription.contains("another program is using it"))
    let noInput = MicrophoneError.opening("default", code: -ENOENT, detail: "No such file or directory")
    #expect(noInput == .noInputDevice(detail: "No such file or directory"))
    #expect(noInput.localizedDescription.contains("no microphone found"))
    #expect(MicrophoneError.opening("usb_mic", code: -ENOENT, detail: "") == .deviceNotFound(device: "usb_mic"))
    #expect(MicrophoneError.opening("hw:0", code: -ENODEV, detail: "") == .deviceNotFound(device: "hw:0"))
    let denied = MicrophoneError.opening("hw:0", code: -EACCES, detail: "Permission denied")
    #expect(denied == .openFailed(device: "hw:0", code: -EACCES, detail: "Permission denied"))
    #expect(denied.localizedDescription.contains("audio group"))
  }

  @Test("stop returns promptly, ends the stream cleanly with the audio in order, and capture can start again")
  func stopMidway() async throws {
    let source = Devices.speech44k
    let microphone = try MicrophoneCapture(device: AudioInputDevice(name: source.name))
    let expected = try reference(source.buffer)
    let stream = try microphone.start()
    #expect(microphone.isCapturing)
    #expect(throws: MicrophoneError.alreadyCapturing(device: source.name)) { try microphone.start() }

    var iterator = stream.makeAsyncIterator()
    var samples = try #require(try await iterator.next()).samples
    let clock = ContinuousClock()
    let stopping = clock.now
    microphone.stop()
    let stopTime = clock.now - stopping
    #expect(stopTime < .seconds(1), "stop took \(stopTime)")
    #expect(!microphone.isCapturing)
    microphone.stop()  // a second stop does nothing

    while let buffer = try await iterator.next() { samples += buffer.samples }
    // The file device is not paced, so it may have reached its end (and repeated its last buffer)
    // before the stop: compare what lies within the file, short of the resampler's edge.
    let comparable = min(samples.count, expected.samples.count) - 64
    try #require(comparable > 0)
    #expect(largestDifference(Array(samples[..<comparable]), Array(expected.samples[..<comparable])) < 1e-4)

    // Started again, the device is opened afresh: the file plays from its start.
    let again = try await collect(microphone.start(forDuration: 0.5), format: .speechAnalysis)
    #expect(abs(again.frameLength - 8_000) <= 16)
    let head = again.frameLength - 64
    try #require(head > 0)
    #expect(largestDifference(Array(again.samples[..<head]), Array(expected.samples[..<head])) < 1e-4)
  }

  @Test("abandoning the stream or cancelling its task stops capture")
  func abandonedStream() async throws {
    let microphone = try MicrophoneCapture(device: AudioInputDevice(name: Devices.tone48k.name))
    do {
      let stream = try microphone.start()
      for try await _ in stream { break }
    }
    #expect(await waitUntilStopped(microphone), "dropping the stream should stop capture")

    let stream = try microphone.start()
    let consumer = Task {
      var frames = 0
      for try await buffer in stream { frames += buffer.frameLength }
      return frames
    }
    try await Task.sleep(for: .milliseconds(50))
    consumer.cancel()
    _ = try? await consumer.value
    #expect(await waitUntilStopped(microphone), "cancelling the consuming task should stop capture")
  }

  private func waitUntilStopped(_ microphone: MicrophoneCapture) async -> Bool {
    for _ in 0..<200 where microphone.isCapturing {
      try? await Task.sleep(for: .milliseconds(10))
    }
    return !microphone.isCapturing
  }
}
