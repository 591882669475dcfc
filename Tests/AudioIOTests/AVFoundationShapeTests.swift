import Foundation
import Synchronization
import TestSupport
import Testing

@testable import AudioIO

/// The AVFoundation-shaped classes over the package's own audio types.
@Suite("AVFoundation's shapes: buffers, converter, engine")
struct AVFoundationShapeTests {
  @Test("AVAudioPCMBuffer holds planar floats within its capacity and converts to and from AudioBuffer")
  func pcmBuffer() throws {
    let stereo = try #require(AudioFormat(standardFormatWithSampleRate: 48_000, channels: 2))
    let buffer = try #require(AVAudioPCMBuffer(pcmFormat: stereo, frameCapacity: 4))
    #expect(buffer.frameLength == 0 && buffer.frameCapacity == 4)
    let source = AudioBuffer(format: stereo, samples: [0.1, -0.1, 0.2, -0.2, 0.3, -0.3])
    #expect(buffer.append(source) == 3)
    #expect(buffer.frameLength == 3)
    let channels = try #require(buffer.floatChannelData)
    #expect(channels[0][2] == 0.3 && channels[1][2] == -0.3)
    #expect(buffer.audioBuffer == source)
    #expect(buffer.append(source) == 1, "only one frame of room is left")
    #expect(AudioFormat(commonFormat: .pcmFormatFloat64, sampleRate: 16_000, channels: 1, interleaved: false) == nil)
    #expect(
      AudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 16_000, channels: 1, interleaved: false)
        == .speechAnalysis)
  }

  @Test("buffers of 16- and 32-bit integers hold their samples, convert to floats and back unchanged")
  func integerBuffers() throws {
    let int16 = try #require(
      AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 2, interleaved: false))
    #expect(int16.commonFormat == .pcmFormatInt16)
    #expect(int16 != AudioFormat(sampleRate: 16_000, channelCount: 2), "the encoding is part of the format")
    #expect(
      int16.settings[AVLinearPCMBitDepthKey] as? Int == 16 && int16.settings[AVLinearPCMIsFloatKey] as? Bool == false)
    let buffer = try #require(AVAudioPCMBuffer(pcmFormat: int16, frameCapacity: 8))
    #expect(buffer.floatChannelData == nil && buffer.int32ChannelData == nil)
    let channels = try #require(buffer.int16ChannelData)
    let floats = AudioBuffer(
      format: AudioFormat(sampleRate: 16_000, channelCount: 2), samples: [0.5, -0.5, 1, -1, 0.25, 0.000_1])
    #expect(buffer.append(floats) == 3)
    #expect(channels[0][0] == 16_384 && channels[1][0] == -16_384)
    #expect(channels[0][1] == 32_767 && channels[1][1] == -32_768, "1.0 clips to the largest sample")
    #expect(channels[1][2] == 3)
    channels[0][2] = -12_345
    let back = buffer.audioBuffer
    #expect(back.format == AudioFormat(sampleRate: 16_000, channelCount: 2))
    #expect(back.samples[4] == Float(-12_345) / 32_768)
    let again = AVAudioPCMBuffer(back, format: int16)
    #expect(again.int16ChannelData?[0][2] == -12_345, "integers read back unchanged")

    let int32 = try #require(
      AVAudioFormat(commonFormat: .pcmFormatInt32, sampleRate: 8_000, channels: 1, interleaved: false))
    let wide = try #require(AVAudioPCMBuffer(pcmFormat: int32, frameCapacity: 2))
    wide.append(AudioBuffer(format: AudioFormat(sampleRate: 8_000, channelCount: 1), samples: [0.5, -1]))
    #expect(wide.int32ChannelData?[0][0] == 1 << 30 && wide.int32ChannelData?[0][1] == Int32.min)
  }

  @Test("a converter writes 16-bit integers from floats, as tutorials ask for 16 kHz Int16 audio")
  func convertToInt16() throws {
    let speech = try AudioFile(forReading: Fixtures.jfk).read(format: AudioFormat(sampleRate: 44_100, channelCount: 2))
    let input = AVAudioPCMBuffer(speech)
    let target = try #require(
      AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: true))
    let converter = try #require(AVAudioConverter(from: input.format, to: target))
    let output = try #require(
      AVAudioPCMBuffer(pcmFormat: target, frameCapacity: AVAudioFrameCount(speech.duration * 16_000) + 1_024))
    var given = false
    var error: NSError?
    let status = converter.convert(to: output, error: &error) { _, state in
      state.pointee = given ? .endOfStream : .haveData
      defer { given = true }
      return given ? nil : input
    }
    #expect(error == nil)
    #expect(status == .haveData || status == .endOfStream)
    let samples = try #require(output.int16ChannelData)[0]
    #expect(abs(Double(output.frameLength) / 16_000 - speech.duration) < 0.05)
    let loudest = (0..<Int(output.frameLength)).map { abs(Int(samples[$0])) }.max() ?? 0
    #expect(loudest > 3_000, "speech, not silence: the loudest sample is \(loudest)")

    let floatTarget = AudioFormat(sampleRate: 16_000, channelCount: 1)
    let floats = try AudioConverter(from: speech.format, to: floatTarget).convert(speech).samples
    let worst = zip(output.audioBuffer.samples, floats).map { abs($0 - $1) }.max() ?? 1
    #expect(worst <= 1 / 32_768 + 1e-6, "the same audio as a float conversion, to the last bit of 16: \(worst)")
  }

  @Test("a file read as 16-bit integers gives its samples; a buffer of them writes a 16-bit file")
  func int16Files() throws {
    let file = try AVAudioFile(forReading: Fixtures.jfk, commonFormat: .pcmFormatInt16, interleaved: false)
    #expect(file.processingFormat.commonFormat == .pcmFormatInt16)
    let buffer = try #require(
      AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length)))
    try file.read(into: buffer)
    #expect(AVAudioFramePosition(buffer.frameLength) == file.length)
    let reference = try AudioFile(forReading: Fixtures.jfk).read()
    let samples = try #require(buffer.int16ChannelData)[0]
    let exact = (0..<Int(buffer.frameLength)).allSatisfy { Float(samples[$0]) / 32_768 == reference.samples[$0] }
    #expect(exact, "jfk.wav holds 16-bit samples: each reads back as it is stored")

    let folder = Fixtures.temporaryFolder("int16-file")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("copy.wav")
    let settings: [String: Any] = [
      AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 16_000, AVNumberOfChannelsKey: 1,
      AVLinearPCMBitDepthKey: 16, AVLinearPCMIsFloatKey: false,
    ]
    let copy = try AVAudioFile(forWriting: url, settings: settings, commonFormat: .pcmFormatInt16, interleaved: false)
    #expect(copy.processingFormat == file.processingFormat)
    try copy.write(from: buffer)
    let written = try AudioFile(forReading: url).read()
    #expect(written.frameLength == reference.frameLength)
    let difference = zip(written.samples, reference.samples).map { abs($0 - $1) }.max() ?? 1
    #expect(difference <= 1 / 32_768 + 1e-6, "the 16-bit copy holds the same samples, to the last bit: \(difference)")
    #expect(throws: AudioIOError.self) {
      try AVAudioFile(forReading: Fixtures.jfk, commonFormat: .pcmFormatFloat64, interleaved: false)
    }
  }

  @Test("AVAudioFormat's standard format is failable and counts channels in AVAudioChannelCount, as Apple's")
  func appleSpelledFormat() throws {
    // As Apple's sample code writes it.
    let format = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
    guard let stereo = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2) else {
      Issue.record("stereo at 44.1 kHz is a standard format")
      return
    }
    #expect(format == .speechAnalysis)
    #expect(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 0) == nil)
    #expect(AVAudioFormat(standardFormatWithSampleRate: 0, channels: 1) == nil)
    #expect(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 6) == nil, "more than 2 needs a layout")

    let channelCount: AVAudioChannelCount = stereo.channelCount
    #expect(channelCount == 2 && stereo.channels == 2)
    let buffer = try #require(AVAudioPCMBuffer(pcmFormat: stereo, frameCapacity: 1_024))
    buffer.frameLength = 512
    let sampleCount = buffer.frameLength * stereo.channelCount
    #expect(sampleCount == 1_024)
    let same = AVAudioFormat(standardFormatWithSampleRate: stereo.sampleRate, channels: stereo.channelCount)
    #expect(same == stereo)
    let common = AVAudioFormat(
      commonFormat: .pcmFormatFloat32, sampleRate: 16_000, channels: stereo.channelCount, interleaved: false)
    #expect(common?.channelCount == 2 && common?.sampleRate == 16_000)
    #expect(stereo.settings[AVNumberOfChannelsKey] as? Int == 2)
  }

  @Test("AVAudioFile(forReading:commonFormat:interleaved:) reads floats, and refuses what buffers cannot hold")
  func fileWithCommonFormat() throws {
    // As Apple's sample code opens a file for analysis.
    let file = try AVAudioFile(forReading: Fixtures.jfk, commonFormat: .pcmFormatFloat32, interleaved: false)
    let commonFormat: AVAudioCommonFormat = file.processingFormat.commonFormat
    #expect(commonFormat == .pcmFormatFloat32)
    let buffer = try #require(
      AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length)))
    try file.read(into: buffer)
    #expect(AVAudioFramePosition(buffer.frameLength) == file.length)
    #expect(buffer.audioBuffer == (try AudioFile(forReading: Fixtures.jfk).read()))
    // jfk.wav is mono, so interleaved and separate channels are the same layout.
    #expect(throws: Never.self) {
      try AVAudioFile(forReading: Fixtures.jfk, commonFormat: .pcmFormatFloat32, interleaved: true)
    }
    #expect(throws: AudioIOError.self) {
      try AVAudioFile(forReading: Fixtures.jfk, commonFormat: .otherFormat, interleaved: false)
    }

    // A stereo file reads with its channels apart, and is refused interleaved.
    let folder = Fixtures.temporaryFolder("common-format")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("stereo.wav")
    let stereo = try #require(AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 2))
    let writer = try AVAudioFile(forWriting: url, settings: stereo.settings)
    try writer.write(
      from: AVAudioPCMBuffer(AudioBuffer(format: stereo, samples: [Float](repeating: 0.25, count: 3_200))))
    writer.close()
    let separate = try AVAudioFile(forReading: url, commonFormat: .pcmFormatFloat32, interleaved: false)
    #expect(separate.processingFormat.channelCount == 2 && separate.length == 1_600)
    #expect(throws: AudioIOError.self) {
      try AVAudioFile(forReading: url, commonFormat: .pcmFormatFloat32, interleaved: true)
    }
  }

  @Test("AVAudioConverter fills the output from the input block, keeps what does not fit, and ends the stream")
  func converter() throws {
    let input = AudioFormat(sampleRate: 48_000, channelCount: 2)
    let converter = try #require(AVAudioConverter(from: input, to: .speechAnalysis))
    let tone = (0..<48_000).flatMap { frame -> [Float] in
      let value = Float(sin(2 * Double.pi * 440 * Double(frame) / 48_000)) * 0.5
      return [value, value]
    }
    let source = AVAudioPCMBuffer(AudioBuffer(format: input, samples: tone))
    var produced: [Float] = []
    var given = false
    var error: NSError?
    // Output buffers of 1,000 frames: the one second of input comes out over several calls.
    var status = AVAudioConverterOutputStatus.haveData
    var calls = 0
    while status == .haveData, calls < 100 {
      calls += 1
      let output = try #require(AVAudioPCMBuffer(pcmFormat: .speechAnalysis, frameCapacity: 1_000))
      status = converter.convert(to: output, error: &error) { _, inputStatus in
        defer { given = true }
        inputStatus.pointee = given ? .endOfStream : .haveData
        return given ? nil : source
      }
      produced += output.audioBuffer.samples
    }
    #expect(error == nil)
    #expect(status == .endOfStream)
    #expect(abs(produced.count - 16_000) <= 2, "\(produced.count) frames from one second")
    let peak = produced.map(abs).max() ?? 0
    // FFmpeg mixes stereo to mono at -3 dB a channel: both channels at 0.5 come out at 0.71.
    #expect(peak > 0.65 && peak < 0.75, "the tone's level survives conversion: \(peak)")

    // The wrong input format is an error, not a crash.
    let other = try #require(AVAudioConverter(from: input, to: .speechAnalysis))
    let output = try #require(AVAudioPCMBuffer(pcmFormat: .speechAnalysis, frameCapacity: 100))
    let wrong = AVAudioPCMBuffer(AudioBuffer(format: .speechAnalysis, samples: [0, 0]))
    let failed = other.convert(to: output, error: &error) { _, inputStatus in
      inputStatus.pointee = .haveData
      return wrong
    }
    #expect(failed == .error)
    #expect(error != nil)
  }

  @Test("AVAudioEngine's input tap delivers the device's audio in buffers of the asked size, then stops")
  func engineTap() async throws {
    let device = MicrophoneCaptureTestDevices.speech44k
    let played = try MicrophoneCaptureTestDevices.play(device.buffer)
    AVAudioEngine.inputDevice = played
    defer { AVAudioEngine.inputDevice = .default }
    let engine = AVAudioEngine()
    let format = engine.inputNode.outputFormat(forBus: 0)
    #expect(format == .speechAnalysis, "the playback device records 16 kHz mono: \(format)")
    let delivered = TapLog()
    engine.inputNode.installTap(onBus: 0, bufferSize: 1_600, format: format) { buffer, time in
      delivered.add(frames: Int(buffer.frameLength), at: time.sampleTime)
    }
    engine.prepare()
    try engine.start()
    #expect(engine.isRunning)
    let deadline = Date().addingTimeInterval(20)
    while delivered.frames < 16_000 * 11, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    let rendered = try #require(engine.inputNode.lastRenderTime, "the input node has delivered audio")
    #expect(rendered.sampleTime > 0 && rendered.sampleRate == 16_000 && rendered.isHostTimeValid)
    engine.stop()
    #expect(engine.inputNode.lastRenderTime == nil, "no render time once the engine is stopped")
    let stopped = delivered.calls
    try await Task.sleep(for: .milliseconds(200))
    #expect(delivered.calls == stopped, "no tap calls after stop() returned")
    #expect(!engine.isRunning)
    #expect(delivered.frames >= 16_000 * 11)
    #expect(delivered.sizes.dropLast().allSatisfy { $0 == 1_600 }, "\(Set(delivered.sizes))")
    #expect(delivered.positionsAreContiguous)
  }

  @Test("a muted app's taps hear silence and unmuting brings the microphone back; each change is posted")
  func mutedInput() async throws {
    let speech = try AudioFile(forReading: Fixtures.jfk).read()
    AVAudioEngine.inputDevice = try MicrophoneCaptureTestDevices.play(speech)
    defer {
      AVAudioEngine.inputDevice = .default
      try? AVAudioApplication.shared.setInputMuted(false)
    }
    let posted = Mutex<[Bool]>([])
    let observer = NotificationCenter.default.addObserver(
      forName: AVAudioApplication.inputMuteStateChangeNotification, object: nil, queue: nil
    ) { note in
      let muted = (note.userInfo?[AVAudioApplication.muteStateKey] as? NSNumber)?.boolValue
      posted.withLock { $0.append(muted ?? false) }
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    /// The loudest sample the input tap hears in its first two seconds.
    func loudestHeard() async throws -> Float {
      let engine = AVAudioEngine()
      let loudest = Mutex<(peak: Float, frames: Int)>((0, 0))
      engine.inputNode.installTap(onBus: 0, bufferSize: 1_600, format: .speechAnalysis) { buffer, _ in
        let samples = UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
        loudest.withLock { $0 = (max($0.peak, samples.map(abs).max() ?? 0), $0.frames + samples.count) }
      }
      try engine.start()
      let deadline = Date().addingTimeInterval(20)
      while loudest.withLock({ $0.frames }) < 32_000, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
      engine.stop()
      return loudest.withLock { $0.peak }
    }
    try AVAudioApplication.shared.setInputMuted(true)
    try AVAudioApplication.shared.setInputMuted(true)
    #expect(AVAudioApplication.shared.isInputMuted)
    #expect(try await loudestHeard() == 0, "muted: silence")
    try AVAudioApplication.shared.setInputMuted(false)
    #expect(try await loudestHeard() > 0.1, "unmuted: the microphone's speech")
    #expect(posted.withLock { $0 } == [true, false], "one notification a change")
  }

  @Test("the session lists the capture devices as ports; the one preferred records and is the route")
  func sessionPorts() throws {
    let tone = MicrophoneCaptureTestDevices.tone48k
    let session = AVAudioSession.sharedInstance()
    defer {
      try? session.setPreferredInput(nil)
      try? session.overrideOutputAudioPort(.none)
    }
    let inputs = try #require(session.availableInputs)
    #expect(inputs.first?.uid == "default", "\(inputs.map(\.uid))")
    let port = try #require(inputs.first { $0.uid == tone.name }, "\(inputs.map(\.uid))")
    #expect(port.portName == tone.description && port.portType == .builtInMic)
    let changes = Mutex(0)
    let observer = NotificationCenter.default.addObserver(
      forName: AVAudioSession.routeChangeNotification, object: nil, queue: nil
    ) { _ in changes.withLock { $0 += 1 } }
    defer { NotificationCenter.default.removeObserver(observer) }
    try session.setPreferredInput(port)
    #expect(session.preferredInput == port && AVAudioEngine.inputDevice.name == tone.name)
    #expect(session.currentRoute.inputs.map(\.uid) == [tone.name])
    #expect(session.sampleRate == 48_000 && session.inputNumberOfChannels == 2, "the device's own format")
    #expect(AVAudioEngine().inputNode.outputFormat(forBus: 0).sampleRate == 48_000, "the engine records from it")
    try session.setPreferredInput(nil)
    #expect(session.preferredInput == nil && AVAudioEngine.inputDevice.isDefault)
    #expect(changes.withLock { $0 } == 2, "each change of input is a route change")
    try session.overrideOutputAudioPort(.speaker)
    #expect(session.currentRoute.outputs.first?.portType == .builtInSpeaker)
    #expect(session.ioBufferDuration > 0)
  }

  @Test("settings make a format; voice processing is a setting; a closed file says so")
  func smallerShapes() throws {
    let aac = try #require(
      AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 12_000, AVNumberOfChannelsKey: 1]))
    #expect(aac.sampleRate == 12_000 && aac.channelCount == 1)
    let float = try #require(
      AVAudioFormat(settings: [AVSampleRateKey: 48_000.0, AVNumberOfChannelsKey: 2, AVLinearPCMIsFloatKey: true]))
    #expect(float.commonFormat == .pcmFormatFloat32 && float.channelCount == 2)
    let int32 = AVAudioFormat(settings: [AVSampleRateKey: 16_000, AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 32])
    #expect(int32?.commonFormat == .pcmFormatInt32)
    #expect(AVAudioFormat(settings: [AVNumberOfChannelsKey: 1]) == nil, "no rate")

    let input = AVAudioEngine().inputNode
    #expect(!input.isVoiceProcessingEnabled)
    try input.setVoiceProcessingEnabled(true)
    #expect(input.isVoiceProcessingEnabled)

    let file = try AVAudioFile(forReading: Fixtures.jfk)
    #expect(file.isOpen)
    file.close()
    #expect(!file.isOpen)
    let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 100))
    #expect(throws: AudioIOError.self) { try file.read(into: buffer) }
  }

  @Test("a tap that asks for 16-bit integers gets the device's audio as 16-bit integers")
  func int16Tap() async throws {
    let device = MicrophoneCaptureTestDevices.speech44k
    let played = try MicrophoneCaptureTestDevices.play(device.buffer)
    AVAudioEngine.inputDevice = played
    defer { AVAudioEngine.inputDevice = .default }
    let engine = AVAudioEngine()
    let format = try #require(
      AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: true))
    let delivered = TapLog()
    let loudest = Mutex<Int>(0)
    engine.inputNode.installTap(onBus: 0, bufferSize: 1_600, format: format) { buffer, time in
      guard let samples = buffer.int16ChannelData?[0], buffer.format == format else { return }
      let peak = (0..<Int(buffer.frameLength)).map { abs(Int(samples[$0])) }.max() ?? 0
      loudest.withLock { $0 = max($0, peak) }
      delivered.add(frames: Int(buffer.frameLength), at: time.sampleTime)
    }
    try engine.start()
    let deadline = Date().addingTimeInterval(20)
    while delivered.frames < 16_000 * 3, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    engine.stop()
    #expect(delivered.frames >= 16_000 * 3, "every buffer was 16-bit: \(delivered.frames) frames")
    #expect(loudest.withLock { $0 } > 1_000, "speech, not silence")
  }

  @Test("an asset loads a file's duration and audio track; a file that is not audio throws from load")
  func assets() async throws {
    let asset = AVURLAsset(url: Fixtures.jfk)
    let (duration, playable) = try await asset.load(.duration, .isPlayable)
    let frames = try AudioFile(forReading: Fixtures.jfk).read().frameLength
    #expect(duration == CMTime(value: Int64(frames), timescale: 16_000) && playable)
    #expect(abs(CMTimeGetSeconds(asset.duration) - 11) < 0.01)
    let tracks = try await asset.loadTracks(withMediaType: .audio)
    let video = try await asset.loadTracks(withMediaType: .video)
    #expect(tracks.count == 1 && video.isEmpty)
    #expect(try await tracks[0].load(.naturalTimeScale) == 16_000)
    #expect(try await tracks[0].load(.timeRange).duration == duration)

    let folder = Fixtures.temporaryFolder("asset")
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = folder.appendingPathComponent("notes.m4a")
    try Data("not audio".utf8).write(to: text)
    let broken = AVURLAsset(url: text)
    await #expect(throws: AudioIOError.self) { try await broken.load(.duration) }
    #expect(!broken.isPlayable && broken.duration == .zero && broken.tracks.isEmpty)
  }

  @Test("the default capture device for audio is the engine's input; there is none for video")
  func defaultCaptureDevice() throws {
    try MicrophoneCaptureTestDevices.install()
    #expect(AVCaptureDevice.default(for: .audio)?.uniqueID == AVAudioEngine.inputDevice.name)
    #expect(AVCaptureDevice.default(for: .video) == nil)
    AVAudioEngine.inputDevice = try MicrophoneCaptureTestDevices.play(MicrophoneCaptureTestDevices.standard.buffer)
    defer { AVAudioEngine.inputDevice = .default }
    let microphone = try #require(AVCaptureDevice.default(for: .audio))
    #expect(microphone.uniqueID == MicrophoneCaptureTestDevices.playbackName)
    #expect(microphone.localizedName == "Test playback")
    let engine = AVAudioEngine()
    let player = AVAudioPlayerNode()
    engine.attach(player)
    engine.connect(player, to: engine.mainMixerNode, fromBus: 0, toBus: 0, format: nil)
    engine.disconnectNodeOutput(player)
    #expect(player.engine === engine)
  }

  @Test("the audio session records categories, options and preferences as iOS code sets them")
  func audioSession() throws {
    let session = AVAudioSession.sharedInstance()
    try session.setCategory(.playAndRecord, mode: .measurement, options: [.allowBluetoothA2DP, .defaultToSpeaker])
    try session.setPreferredSampleRate(16_000)
    try session.setPreferredIOBufferDuration(0.005)
    try session.setActive(true, options: .notifyOthersOnDeactivation)
    #expect(session.category == .playAndRecord && session.mode == .measurement)
    #expect(session.categoryOptions.contains(.allowBluetoothA2DP) && !session.categoryOptions.contains(.allowAirPlay))
    #expect(AVAudioSession.CategoryOptions.allowBluetoothHFP == .allowBluetooth)
    #expect(session.preferredSampleRate == 16_000 && session.preferredIOBufferDuration == 0.005)
    // Interruption handling as iOS apps write it; Linux never posts the notification.
    let observer = NotificationCenter.default.addObserver(
      forName: AVAudioSession.interruptionNotification, object: session, queue: nil
    ) { notification in
      let raw = notification.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt
      _ = raw.flatMap(AVAudioSession.InterruptionType.init(rawValue:))
    }
    NotificationCenter.default.removeObserver(observer)
    #expect(AVAudioSession.InterruptionType(rawValue: 1) == .began)
    try session.setActive(false)
    #expect(!session.isActive)
  }
}

/// Playback through a player node, heard on the test speaker.
@Suite("AVAudioPlayerNode", .serialized)
struct AVAudioPlayerNodeTests {
  /// An engine whose player node plays on the cleared test speaker (the caller sets the output
  /// device back), and jfk.wav opened to play.
  private func playerOnTestSpeaker() throws -> (AVAudioEngine, AVAudioPlayerNode, AVAudioFile) {
    try MicrophoneCaptureTestDevices.clearSpeaker()
    AVAudioEngine.outputDevice = MicrophoneCaptureTestDevices.speakerName
    let engine = AVAudioEngine()
    let player = AVAudioPlayerNode()
    let file = try AVAudioFile(forReading: Fixtures.jfk)
    engine.attach(player)
    engine.connect(player, to: engine.outputNode, format: file.processingFormat)
    return (engine, player, file)
  }

  @Test("a scheduled file plays through the output device, then its completion handler runs")
  func playsAFile() async throws {
    defer { AVAudioEngine.outputDevice = "default" }
    let (engine, player, file) = try playerOnTestSpeaker()
    let done = CompletionFlag()
    player.scheduleFile(file, at: nil, completionCallbackType: .dataPlayedBack) { type in done.set(type) }
    try engine.start()
    player.play()
    #expect(player.isPlaying)
    let deadline = Date().addingTimeInterval(30)
    while done.type == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    #expect(done.type == .dataPlayedBack)
    #expect(player.playbackError == nil, "\(String(describing: player.playbackError))")
    let heard = try MicrophoneCaptureTestDevices.speakerOutput()
    let original = try AudioFile(forReading: Fixtures.jfk).read()
    #expect(abs(heard.frameLength - original.frameLength) < 1_600, "\(heard.frameLength) of \(original.frameLength)")
    let count = min(heard.frameLength, original.frameLength)
    let difference = zip(heard.samples.prefix(count), original.samples.prefix(count)).map { abs($0 - $1) }.max() ?? 1
    #expect(difference < 0.01, "what was played is the file: largest difference \(difference)")
    engine.stop()
  }

  @Test("scheduleSegment plays the frames asked for, from the position asked for")
  func playsASegment() async throws {
    defer { AVAudioEngine.outputDevice = "default" }
    let (engine, player, file) = try playerOnTestSpeaker()
    let done = CompletionFlag()
    player.scheduleSegment(
      file, startingFrame: 8 * 16_000, frameCount: 16_000, at: nil, completionCallbackType: .dataPlayedBack
    ) { type in done.set(type) }
    try engine.start()
    player.play()
    let deadline = Date().addingTimeInterval(30)
    while done.type == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    engine.stop()
    let heard = try MicrophoneCaptureTestDevices.speakerOutput()
    let original = try AudioFile(forReading: Fixtures.jfk).read().frames((8 * 16_000)..<(9 * 16_000))
    #expect(heard.frameLength == 16_000, "one second: \(heard.frameLength) frames")
    let difference = zip(heard.samples, original.samples).map { abs($0 - $1) }.max() ?? 1
    #expect(difference < 0.01, "the second from 8 s on: largest difference \(difference)")
  }

  @Test("a looping buffer plays whole passes without a gap until stop() or a buffer that interrupts it")
  func loopsUntilInterrupted() async throws {
    defer { AVAudioEngine.outputDevice = "default" }
    let format = AudioFormat.speechAnalysis
    let tone = AudioBuffer(format: format, samples: (0..<1_600).map { 0.5 * sin(Float($0) * 2 * .pi * 440 / 16_000) })
    let level = AudioBuffer(format: format, samples: [Float](repeating: 0.25, count: 3_200))
    for ending in ["stop", "interrupts", "interruptsAtLoop"] {
      let (engine, player, _) = try playerOnTestSpeaker()
      let looped = CompletionFlag()
      let after = CompletionFlag()
      player.scheduleBuffer(AVAudioPCMBuffer(tone), at: nil, options: .loops, completionCallbackType: .dataPlayedBack) {
        looped.set($0)
      }
      try engine.start()
      player.play()
      try await Task.sleep(for: .milliseconds(100))
      #expect(looped.type == nil, "\(ending): still looping")
      switch ending {
      case "stop": player.stop()
      default:
        let options: AVAudioPlayerNodeBufferOptions = ending == "interrupts" ? .interrupts : .interruptsAtLoop
        player.scheduleBuffer(
          AVAudioPCMBuffer(level), at: nil, options: options, completionCallbackType: .dataPlayedBack
        ) { after.set($0) }
      }
      let deadline = Date().addingTimeInterval(30)
      while looped.type == nil || (ending != "stop" && after.type == nil), Date() < deadline {
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(looped.type == .dataPlayedBack, "\(ending): the loop's handler ran once it ended")
      let rendered = player.lastRenderTime?.sampleTime ?? 0
      engine.stop()
      // The test speaker keeps what its last session of the device played.
      let heard = try MicrophoneCaptureTestDevices.speakerOutput()
      if ending == "stop" {
        #expect(heard.frameLength >= 2 * tone.frameLength, "passes in one session: \(heard.frameLength) frames")
        let whole = heard.frames(0..<(min(heard.frameLength, 32_000) / 1_600 * 1_600)).samples
        let difference = whole.enumerated().map { abs($1 - tone.samples[$0 % 1_600]) }.max() ?? 1
        #expect(difference < 0.01, "the loop is the buffer again and again, without a gap")
      } else {
        #expect(after.type == .dataPlayedBack)
        #expect(heard.samples.count == 3_200 && heard.samples.allSatisfy { abs($0 - 0.25) < 0.01 }, "\(ending)")
        #expect(rendered > 2 * 1_600 + 3_200, "\(ending): the loop played first, \(rendered) frames in all")
        if ending == "interruptsAtLoop" {
          #expect(rendered % 1_600 == 0, "the loop finished its pass first: \(rendered) frames in all")
        }
      }
    }
  }

  @Test("the main mixer's output volume and the player's volume scale what is played; 0 is silence")
  func volumes() async throws {
    defer { AVAudioEngine.outputDevice = "default" }
    let (engine, player, file) = try playerOnTestSpeaker()
    #expect(player.engine === engine && engine.mainMixerNode.engine === engine)
    // As recording apps silence the mixer so the microphone is not played back.
    engine.mainMixerNode.outputVolume = 0.5
    player.volume = 0.5
    let done = CompletionFlag()
    player.scheduleFile(file, at: nil, completionCallbackType: .dataPlayedBack) { type in done.set(type) }
    try engine.start()
    player.play()
    let deadline = Date().addingTimeInterval(30)
    while done.type == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    engine.stop()
    let heard = try MicrophoneCaptureTestDevices.speakerOutput()
    let original = try AudioFile(forReading: Fixtures.jfk).read()
    let count = min(heard.frameLength, original.frameLength)
    #expect(count > original.frameLength / 2)
    let difference =
      zip(heard.samples.prefix(count), original.samples.prefix(count)).map { abs($0 - 0.25 * $1) }.max() ?? 1
    #expect(difference < 0.01, "played at a quarter of the file's level: largest difference \(difference)")

    let stereo = AudioBuffer(format: AudioFormat(sampleRate: 16_000, channelCount: 2), samples: [0.8, 0.8, -0.4, -0.4])
    let right = AVAudioPlayerNode.mixed(stereo, volume: 1, pan: 1).samples
    #expect(right == [0, 0.8, 0, -0.4], "panned right: only the right channel")
    #expect(AVAudioPlayerNode.mixed(stereo, volume: 0, pan: 0).samples.allSatisfy { $0 == 0 })
  }

  @Test("lastRenderTime and playerTime(forNodeTime:) follow the frames played; stop restarts the player's timeline")
  func renderAndPlayerTimes() async throws {
    defer { AVAudioEngine.outputDevice = "default" }
    let (engine, player, file) = try playerOnTestSpeaker()
    let rate = file.processingFormat.sampleRate
    #expect(player.lastRenderTime == nil, "nothing has been played yet")
    #expect(player.playerTime(forNodeTime: AVAudioTime(sampleTime: 0, atRate: rate)) == nil, "not playing")
    #expect(player.currentTime == .zero)

    let done = CompletionFlag()
    player.scheduleFile(file, at: nil) { done.set(.dataPlayedBack) }
    try engine.start()
    player.play()
    var seen: [Double] = []
    let deadline = Date().addingTimeInterval(30)
    while done.type == nil, Date() < deadline {
      seen.append(player.currentTime.seconds)
      try await Task.sleep(for: .milliseconds(2))
    }
    #expect(done.type != nil)
    #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 }, "the position only moves forward")
    let nodeTime = try #require(player.lastRenderTime)
    #expect(nodeTime.isSampleTimeValid && nodeTime.isHostTimeValid)
    #expect(nodeTime.sampleRate == rate)
    #expect(nodeTime.sampleTime == file.length, "every frame of the file was played")
    let playerTime = try #require(player.playerTime(forNodeTime: nodeTime))
    #expect(playerTime.sampleTime == file.length && playerTime.hostTime == nodeTime.hostTime)
    #expect(abs(player.currentTime.seconds - Double(file.length) / rate) < 0.001)
    let byHostTime = try #require(player.playerTime(forNodeTime: AVAudioTime(hostTime: nodeTime.hostTime)))
    #expect(byHostTime.sampleTime == file.length, "a host time is placed against the last render")

    // Stopped, the player has no time; played again, its timeline starts at zero while the node's goes on.
    let finished = Date().addingTimeInterval(5)
    while player.isPlaying, Date() < finished { try await Task.sleep(for: .milliseconds(5)) }
    player.stop()
    #expect(player.playerTime(forNodeTime: nodeTime) == nil)
    let tail = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 1_600))
    tail.frameLength = 1_600
    let again = CompletionFlag()
    player.scheduleBuffer(tail) { again.set(.dataPlayedBack) }
    player.play()
    while again.type == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
    let later = try #require(player.lastRenderTime)
    #expect(later.sampleTime == file.length + 1_600)
    #expect(player.playerTime(forNodeTime: later)?.sampleTime == 1_600)
    #expect(player.playerTime(forNodeTime: nodeTime)?.sampleTime == 0, "where this play began")
    let first = player.playerTime(forNodeTime: AVAudioTime(sampleTime: 0, atRate: rate))
    #expect(first?.sampleTime == -file.length, "the first play began a file's length earlier")
    engine.stop()
  }

  @Test("an output device that does not exist is reported, and the completion handler still runs")
  func missingDevice() async throws {
    AVAudioEngine.outputDevice = "vn_no_such_speaker"
    defer { AVAudioEngine.outputDevice = "default" }
    let player = AVAudioPlayerNode()
    let done = CompletionFlag()
    player.scheduleBuffer(AVAudioPCMBuffer(AudioBuffer(format: .speechAnalysis, samples: [0, 0.1, 0]))) {
      done.set(.dataPlayedBack)
    }
    player.play()
    let deadline = Date().addingTimeInterval(10)
    while done.type == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    #expect(done.type != nil)
    let message = (player.playbackError as? AudioIOError)?.errorDescription ?? ""
    #expect(message.contains("vn_no_such_speaker"), "\(message)")
  }
}

extension AVAudioPlayerNode {
  /// How far playback has got, read the way Apple's transcription sample reads it to highlight
  /// the words being played.
  fileprivate var currentTime: CMTime {
    guard let nodeTime = lastRenderTime, let playerTime = playerTime(forNodeTime: nodeTime) else {
      return .zero
    }
    return CMTime(seconds: Double(playerTime.sampleTime) / playerTime.sampleRate, preferredTimescale: 1_000)
  }
}

/// A completion handler's call, seen from the test.
final class CompletionFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var called: AVAudioPlayerNode.CompletionCallbackType?
  func set(_ type: AVAudioPlayerNode.CompletionCallbackType) { lock.withLock { called = type } }
  var type: AVAudioPlayerNode.CompletionCallbackType? { lock.withLock { called } }
}

/// What a tap received, recorded across threads.
final class TapLog: @unchecked Sendable {
  private let lock = NSLock()
  private var log: [(frames: Int, position: Int64)] = []

  func add(frames: Int, at position: Int64) { lock.withLock { log.append((frames, position)) } }
  var calls: Int { lock.withLock { log.count } }
  var frames: Int { lock.withLock { log.reduce(0) { $0 + $1.frames } } }
  var sizes: [Int] { lock.withLock { log.map(\.frames) } }
  var positionsAreContiguous: Bool {
    lock.withLock {
      zip(log, log.dropFirst()).allSatisfy { $0.position + Int64($0.frames) == $1.position }
    }
  }
}
