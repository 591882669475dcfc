// The shape of the recorder in Apple's speech-to-text sample: microphone buffers from an
// AVAudioEngine tap go both to a file on disk (AVAudioFile in the input's own format) and,
// through an AsyncStream, to the transcriber; recording asks AVCaptureDevice for permission.
// Our own code in that shape; only the imports differ.

import AudioIO
import Foundation
import SpeechRecognition

final class Recorder: @unchecked Sendable {
  private var outputContinuation: AsyncStream<AVAudioPCMBuffer>.Continuation?
  private let audioEngine: AVAudioEngine
  private let transcriber: SpokenWordTranscriber
  var file: AVAudioFile?
  var playerNode: AVAudioPlayerNode?
  private let url: URL
  let story: Story

  init(transcriber: SpokenWordTranscriber, story: Story, folder: URL) {
    audioEngine = AVAudioEngine()
    self.transcriber = transcriber
    self.story = story
    url = folder.appendingPathComponent(UUID().uuidString).appendingPathExtension("wav")
  }

  func record() async throws {
    story.url = url
    guard await isAuthorized() else { return }
    try await transcriber.setUpTranscriber()
    for await input in try await audioStream() {
      try await transcriber.streamAudioToTranscriber(input)
    }
  }

  func stopRecording() async throws {
    audioEngine.stop()
    audioEngine.inputNode.removeTap(onBus: 0)
    outputContinuation?.finish()
    story.isDone = true
    try await transcriber.finishTranscribing()
  }

  func isAuthorized() async -> Bool {
    if AVCaptureDevice.authorizationStatus(for: .audio) == .authorized {
      return true
    }
    return await AVCaptureDevice.requestAccess(for: .audio)
  }

  private func audioStream() async throws -> AsyncStream<AVAudioPCMBuffer> {
    try setUpAudioEngine()
    // The stream exists before the engine starts, so no buffer is lost to the file alone.
    let stream = AsyncStream(AVAudioPCMBuffer.self, bufferingPolicy: .unbounded) { continuation in
      outputContinuation = continuation
    }
    audioEngine.inputNode.installTap(
      onBus: 0, bufferSize: 4096, format: audioEngine.inputNode.outputFormat(forBus: 0)
    ) { [weak self] buffer, _ in
      guard let self else { return }
      writeBufferToDisk(buffer: buffer)
      outputContinuation?.yield(buffer)
    }
    audioEngine.prepare()
    try audioEngine.start()
    return stream
  }

  private func setUpAudioEngine() throws {
    let inputSettings = audioEngine.inputNode.inputFormat(forBus: 0).settings
    file = try AVAudioFile(forWriting: url, settings: inputSettings)
    audioEngine.inputNode.removeTap(onBus: 0)
  }

  func playRecording(completion: @escaping @Sendable () -> Void) {
    guard let file else { return }
    playerNode = AVAudioPlayerNode()
    guard let playerNode else { return }
    audioEngine.attach(playerNode)
    audioEngine.connect(playerNode, to: audioEngine.outputNode, format: file.processingFormat)
    playerNode.scheduleFile(file, at: nil, completionCallbackType: .dataPlayedBack) { _ in completion() }
    do {
      try audioEngine.start()
      playerNode.play()
    } catch {
      print("error playing back: \(error)")
    }
  }

  func stopPlaying() {
    audioEngine.stop()
  }

  func writeBufferToDisk(buffer: AVAudioPCMBuffer) {
    do {
      try file?.write(from: buffer)
    } catch {
      print("file writing error: \(error)")
    }
  }
}
