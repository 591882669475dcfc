import Foundation
import Synchronization
import TestSupport
import Testing

@testable import AudioIO

/// The voice-memo pair of AVFoundation, as tutorials use it: a recorder made from a settings
/// dictionary that records the microphone into a file, and a player that plays a file back,
/// each telling its delegate when it is done. The microphone is a test device playing jfk.wav,
/// the speaker a test device writing what it hears to a file.
@Suite("AVAudioRecorder and AVAudioPlayer", .serialized)
struct AVAudioRecorderPlayerTests {
  /// The settings a voice-memo tutorial records with.
  private let memoSettings: [String: Any] = [
    AVFormatIDKey: Int(kAudioFormatMPEG4AAC), AVSampleRateKey: 16_000, AVNumberOfChannelsKey: 1,
    AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue,
  ]

  /// Points the recorders' microphone at a test device that plays jfk.wav at 16 kHz.
  private func microphonePlayingJFK() throws -> AudioBuffer {
    let speech = try AudioFile(forReading: Fixtures.jfk).read()
    AVAudioEngine.inputDevice = try MicrophoneCaptureTestDevices.play(speech)
    return speech
  }

  /// The largest difference between `heard` and the start of `original`, over `heard`'s length.
  private func largestDifference(_ heard: AudioBuffer, _ original: ArraySlice<Float>, gain: Float = 1) -> Float {
    zip(heard.samples, original).map { abs($0 - gain * $1) }.max() ?? 1
  }

  @Test("a recorder records the microphone for a duration into its file; the delegate hears it finished")
  func recordsForADuration() async throws {
    let speech = try microphonePlayingJFK()
    defer { AVAudioEngine.inputDevice = .default }
    let folder = Fixtures.temporaryFolder("recorder")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("memo.m4a")
    let recorder = try AVAudioRecorder(url: url, settings: memoSettings)
    let delegate = Finish()
    recorder.delegate = delegate
    recorder.isMeteringEnabled = true
    #expect(recorder.format.sampleRate == 16_000 && recorder.format.channelCount == 1)
    #expect(recorder.prepareToRecord())
    #expect(recorder.record(forDuration: 2))
    try await delegate.wait()
    #expect(delegate.outcome == true)
    #expect(!recorder.isRecording && recorder.currentTime == 0)
    recorder.updateMeters()
    let average = recorder.averagePower(forChannel: 0)
    #expect(average > -50 && average < 0 && recorder.peakPower(forChannel: 0) >= average, "speech: \(average) dB")
    #expect(recorder.averagePower(forChannel: 1) == -160, "a channel the recording does not have")

    // AAC, as asked, and as long as what was recorded.
    let file = try AudioFile(forReading: url)
    #expect(file.codecName == "aac", "stored as \(file.codecName)")
    let recorded = try file.read()
    #expect(recorded.frameLength == 32_000, "two seconds at 16 kHz: \(recorded.frameLength)")
    let spoken = speech.samples.prefix(32_000)
    let heard = recorded.samples.prefix(32_000)
    let product = zip(heard, spoken).reduce(0) { $0 + Double($1.0) * Double($1.1) }
    let energy = heard.reduce(0) { $0 + Double($1 * $1) } * spoken.reduce(0) { $0 + Double($1 * $1) }
    let correlation = product / energy.squareRoot()
    #expect(correlation > 0.98, "the file holds what the microphone heard, in time: correlation \(correlation)")
    #expect(recorder.deleteRecording())
    #expect(!FileManager.default.fileExists(atPath: url.path))
  }

  @Test("pause keeps the recording, record() appends to it, and stop() closes it")
  func pausesAndResumes() async throws {
    let speech = try microphonePlayingJFK()
    defer { AVAudioEngine.inputDevice = .default }
    let folder = Fixtures.temporaryFolder("recorder")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("memo.wav")
    let recorder = try AVAudioRecorder(
      url: url, format: try #require(AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)))
    let delegate = Finish()
    recorder.delegate = delegate
    #expect(recorder.record() && recorder.isRecording)
    let deadline = Date().addingTimeInterval(20)
    while recorder.currentTime < 0.5, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
    recorder.pause()
    let paused = recorder.currentTime
    #expect(!recorder.isRecording && paused >= 0.5)
    try await Task.sleep(for: .milliseconds(200))
    #expect(recorder.currentTime == paused, "nothing is recorded while paused")
    #expect(!recorder.deleteRecording(), "a paused recording is not deleted")
    #expect(delegate.outcome == nil, "a pause does not finish the recording")

    #expect(recorder.record())
    while recorder.currentTime < paused + 0.5, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
    recorder.stop()
    try await delegate.wait()
    #expect(delegate.outcome == true && recorder.currentTime == 0)
    let recorded = try AudioFile(forReading: url).read()
    #expect(Double(recorded.frameLength) >= (paused + 0.5) * 16_000)
    let first = Int(paused * 16_000)
    let difference = largestDifference(recorded.frames(0..<first), speech.samples[...])
    #expect(difference < 0.001, "the part before the pause is the microphone's audio: \(difference)")
  }

  @Test("a recorder let go while recording stops, and its file keeps what it recorded")
  func releasedRecorderStops() async throws {
    _ = try microphonePlayingJFK()
    defer { AVAudioEngine.inputDevice = .default }
    let folder = Fixtures.temporaryFolder("recorder")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("memo.wav")
    do {
      let recorder = try AVAudioRecorder(url: url, settings: memoSettings)
      #expect(recorder.record())
      let deadline = Date().addingTimeInterval(20)
      while recorder.currentTime < 0.5, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
    }
    try await Task.sleep(for: .milliseconds(300))
    let size = { (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0 }
    let settled = size()
    try await Task.sleep(for: .milliseconds(300))
    #expect(size() == settled, "nothing is written once the recorder is gone")
    #expect(try AudioFile(forReading: url).read().duration >= 0.5, "what it recorded stays, playable")
  }

  @Test("bad settings and a missing microphone fail with a reason, and record() says it did not start")
  func failures() throws {
    let folder = Fixtures.temporaryFolder("recorder")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("memo.m4a")
    #expect {
      try AVAudioRecorder(url: url, settings: [AVFormatIDKey: Int(kAudioFormatMPEG4AAC), AVNumberOfChannelsKey: 1])
    } throws: { error in
      (error as? AudioIOError)?.errorDescription?.contains("AVSampleRateKey") == true
    }
    #expect(throws: AudioIOError.self) {
      try AVAudioRecorder(url: url, settings: [AVFormatIDKey: 42, AVSampleRateKey: 16_000.0, AVNumberOfChannelsKey: 1])
    }
    AVAudioEngine.inputDevice = AudioInputDevice(name: "vn_no_such_microphone", description: "")
    defer { AVAudioEngine.inputDevice = .default }
    let recorder = try AVAudioRecorder(url: url, settings: memoSettings)
    #expect(!recorder.record() && !recorder.isRecording)
    let message = (recorder.recordingError as? LocalizedError)?.errorDescription ?? ""
    #expect(message.contains("vn_no_such_microphone"), "\(message)")
  }

  @Test("a player plays its file through the speaker, then tells its delegate and goes back to the start")
  func playsAFile() async throws {
    try MicrophoneCaptureTestDevices.clearSpeaker()
    AVAudioEngine.outputDevice = MicrophoneCaptureTestDevices.speakerName
    defer { AVAudioEngine.outputDevice = "default" }
    let player = try AVAudioPlayer(contentsOf: Fixtures.jfk)
    let original = try AudioFile(forReading: Fixtures.jfk).read()
    #expect(abs(player.duration - 11) < 0.1 && player.numberOfChannels == 1)
    let delegate = Finish()
    player.delegate = delegate
    player.currentTime = 8
    #expect(player.prepareToPlay() && player.play() && player.isPlaying)
    try await delegate.wait()
    #expect(delegate.outcome == true && !player.isPlaying && player.currentTime == 0)
    let heard = try MicrophoneCaptureTestDevices.speakerOutput()
    let start = 8 * 16_000
    #expect(abs(heard.frameLength - (original.frameLength - start)) < 160, "the last three seconds")
    let difference = largestDifference(heard, original.samples[start...])
    #expect(difference < 0.001, "what was heard is the file from 8 s on: largest difference \(difference)")
  }

  @Test("a player made from data loops as asked, at its volume, and meters what it plays")
  func loopsAtAVolume() async throws {
    try MicrophoneCaptureTestDevices.clearSpeaker()
    AVAudioEngine.outputDevice = MicrophoneCaptureTestDevices.speakerName
    defer { AVAudioEngine.outputDevice = "default" }
    let original = try AudioFile(forReading: Fixtures.jfk).read()
    let clip = original.frames(16_000..<24_000)
    let player = try AVAudioPlayer(data: WAVWriter.fileData(for: clip))
    #expect(player.url == nil && player.data != nil && abs(player.duration - 0.5) < 0.001)
    player.numberOfLoops = 2
    player.volume = 0.5
    let delegate = Finish()
    player.delegate = delegate
    player.play()
    try await delegate.wait()
    #expect(delegate.outcome == true && player.numberOfLoops == 2)
    let heard = try MicrophoneCaptureTestDevices.speakerOutput()
    #expect(abs(heard.frameLength - 24_000) < 160, "three times half a second: \(heard.frameLength)")
    let twice = clip.samples + clip.samples + clip.samples
    let difference = largestDifference(heard, twice[...], gain: 0.5)
    #expect(difference < 0.001, "the clip three times at half its level: largest difference \(difference)")

    player.currentTime = 0.4
    player.updateMeters()
    #expect(player.averagePower(forChannel: 0) == -160, "metering is off")
    player.isMeteringEnabled = true
    player.updateMeters()
    let average = player.averagePower(forChannel: 0)
    #expect(average > -50 && average < 0 && player.peakPower(forChannel: 0) >= average, "speech: \(average) dB")
  }

  @Test("pause keeps a player's place, currentTime moves it, and play() goes on from there; a fade moves the volume")
  func pausesAndSeeks() async throws {
    try MicrophoneCaptureTestDevices.clearSpeaker()
    AVAudioEngine.outputDevice = MicrophoneCaptureTestDevices.speakerName
    defer { AVAudioEngine.outputDevice = "default" }
    let original = try AudioFile(forReading: Fixtures.jfk).read()
    let player = try AVAudioPlayer(contentsOf: Fixtures.jfk)
    let delegate = Finish()
    player.delegate = delegate
    // The test speaker takes audio as fast as it comes: looping for ever keeps it playing.
    player.numberOfLoops = -1
    player.play()
    try await Task.sleep(for: .milliseconds(50))
    player.pause()
    try await Task.sleep(for: .milliseconds(100))
    let paused = player.currentTime
    #expect(!player.isPlaying && paused >= 0 && paused <= player.duration)
    try await Task.sleep(for: .milliseconds(100))
    #expect(player.currentTime == paused, "nothing plays while paused")

    try MicrophoneCaptureTestDevices.clearSpeaker()
    player.currentTime = 2
    player.play()
    try await Task.sleep(for: .milliseconds(50))
    player.stop()
    try await Task.sleep(for: .milliseconds(100))
    #expect(delegate.outcome == nil, "a pause or a stop is no finish")
    let heard = try MicrophoneCaptureTestDevices.speakerOutput()
    let first = heard.frames(0..<min(heard.frameLength, original.frameLength - 32_000))
    #expect(first.frameLength > 1_600, "it played after the move: \(heard.frameLength) frames")
    let difference = largestDifference(first, original.samples[32_000...])
    #expect(difference < 0.001, "it played on from 2 s: largest difference \(difference)")

    player.setVolume(0.2, fadeDuration: 10)
    #expect(player.volume > 0.2 && player.volume <= 1, "a fade of ten seconds has only begun")
    player.setVolume(0.2, fadeDuration: 0)
    #expect(player.volume == 0.2)
  }

  @Test("rate plays faster or slower at the same pitch once enableRate is set")
  func rates() async throws {
    AVAudioEngine.outputDevice = MicrophoneCaptureTestDevices.speakerName
    defer { AVAudioEngine.outputDevice = "default" }
    let tone = AudioBuffer(
      format: .speechAnalysis, samples: (0..<16_000).map { Float(0.5 * sin(2 * Double.pi * 200 * Double($0) / 16_000)) }
    )
    let data = WAVWriter.fileData(for: tone)
    // Each run: how long it played, and how often the heard wave crosses zero a second.
    func play(rate: Float, enabled: Bool) async throws -> (seconds: Double, crossings: Double) {
      try MicrophoneCaptureTestDevices.clearSpeaker()
      let player = try AVAudioPlayer(data: data)
      player.enableRate = enabled
      player.rate = rate
      let delegate = Finish()
      player.delegate = delegate
      player.play()
      try await delegate.wait()
      let heard = try MicrophoneCaptureTestDevices.speakerOutput().samples
      let middle = heard[(heard.count / 10)..<(heard.count * 9 / 10)]
      let crossings = zip(middle, middle.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
      return (Double(heard.count) / 16_000, Double(crossings) / (Double(middle.count) / 16_000))
    }
    let fast = try await play(rate: 2, enabled: true)
    #expect(abs(fast.seconds - 0.5) < 0.03, "twice as fast: \(fast.seconds) s")
    #expect(abs(fast.crossings / 400 - 1) < 0.03, "still 200 Hz: \(fast.crossings / 2) Hz")
    let slow = try await play(rate: 0.5, enabled: true)
    #expect(abs(slow.seconds - 2) < 0.03, "half as fast: \(slow.seconds) s")
    #expect(abs(slow.crossings / 400 - 1) < 0.03, "still 200 Hz: \(slow.crossings / 2) Hz")
    let ignored = try await play(rate: 2, enabled: false)
    #expect(abs(ignored.seconds - 1) < 0.01, "without enableRate the rate does not apply: \(ignored.seconds) s")
  }

  @Test("a player for a file that is not audio throws; a speaker that does not exist is reported to the delegate")
  func playerFailures() async throws {
    let folder = Fixtures.temporaryFolder("player")
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = folder.appendingPathComponent("notes.txt")
    try Data("not audio".utf8).write(to: text)
    #expect(throws: AudioIOError.self) { try AVAudioPlayer(contentsOf: text) }
    #expect(throws: AudioIOError.self) { try AVAudioPlayer(contentsOf: folder.appendingPathComponent("gone.m4a")) }

    AVAudioEngine.outputDevice = "vn_no_such_speaker"
    defer { AVAudioEngine.outputDevice = "default" }
    let player = try AVAudioPlayer(contentsOf: Fixtures.jfk)
    let delegate = Finish()
    player.delegate = delegate
    player.play()
    try await delegate.wait()
    #expect(delegate.outcome == false && !player.isPlaying)
    let message = (player.playbackError as? AudioIOError)?.errorDescription ?? ""
    #expect(message.contains("vn_no_such_speaker"), "\(message)")
  }
}

/// A recorder's and a player's delegate that keeps how they finished.
private final class Finish: AVAudioRecorderDelegate, AVAudioPlayerDelegate, @unchecked Sendable {
  private let finished = Mutex<Bool?>(nil)

  /// Whether the last recording or playing finished successfully; nil until one finishes.
  var outcome: Bool? { finished.withLock { $0 } }

  func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {
    finished.withLock { $0 = flag }
  }

  func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
    finished.withLock { $0 = flag }
  }

  /// Waits up to 30 seconds for a finish.
  func wait() async throws {
    let deadline = Date().addingTimeInterval(30)
    while outcome == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
    #expect(outcome != nil, "the delegate heard nothing within 30 seconds")
  }
}
