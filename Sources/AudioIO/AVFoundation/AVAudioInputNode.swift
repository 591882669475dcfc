import Foundation

/// The engine's input: the microphone, recorded through ``MicrophoneCapture`` (ALSA).
///
/// Its output format is the device's own rate and channel count; a tap may ask for another
/// format and gets converted audio. Which device it records is ``AVAudioEngine/inputDevice``
/// (ALSA's default unless changed). Audio flows only while the engine runs and a tap is
/// installed, and each tap buffer's time counts frames from the start of that run.
public final class AVAudioInputNode: AVAudioNode, @unchecked Sendable {
  private var deviceFormat: AVAudioFormat?
  private var capture: MicrophoneCapture?
  private var delivery: Task<Void, Never>?
  private var running = false
  private var generation = 0

  private var voiceProcessing = false

  override init() {}

  /// Whether voice processing (echo cancellation, noise suppression, gain control) is on. It is
  /// recorded and nothing more: the microphone's audio reaches taps as the device captures it.
  public var isVoiceProcessingEnabled: Bool { lock.withLock { voiceProcessing } }

  /// Turns voice processing on or off; see ``isVoiceProcessingEnabled``.
  public func setVoiceProcessingEnabled(_ enabled: Bool) throws {
    lock.withLock { voiceProcessing = enabled }
  }

  /// The device's own format (probed once); 16 kHz mono when no device can be opened, in which
  /// case starting the engine with a tap throws the reason.
  public override func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
    lock.withLock {
      if let deviceFormat { return deviceFormat }
      let probed = (try? MicrophoneCapture(device: AVAudioEngine.inputDevice))?.deviceFormat
      deviceFormat = probed
      return probed ?? .speechAnalysis
    }
  }

  override func tapDidChange() {
    lock.withLock {
      guard running else { return }
      stopCapture()
      try? startCapture()
    }
  }

  func engineDidStart() throws(MicrophoneError) {
    lock.lock()
    defer { lock.unlock() }
    running = true
    do {
      try startCapture()
    } catch {
      running = false
      throw error
    }
  }

  func engineDidStop() {
    lock.withLock {
      running = false
      renderTime = nil
      stopCapture()
    }
  }

  /// Starts recording for the installed tap, if there is one. Called with the lock held.
  private func startCapture() throws(MicrophoneError) {
    guard let tap, capture == nil else { return }
    let format = tap.format ?? outputFormat(forBus: 0)
    // Captured as floats; a tap that asked for integers gets them converted.
    let microphone = try MicrophoneCapture(device: AVAudioEngine.inputDevice, outputFormat: format.floatFormat)
    let stream = try microphone.start()
    capture = microphone
    generation += 1
    let current = generation
    delivery = Task.detached { [weak self] in
      var grouped = AudioBuffer(format: format.floatFormat)
      var position: AVAudioFramePosition = 0
      do {
        for try await buffer in stream {
          grouped.samples += buffer.samples
          while grouped.frameLength >= Int(tap.bufferSize) {
            let chunk = grouped.frames(0..<Int(tap.bufferSize))
            grouped = grouped.frames(Int(tap.bufferSize)..<grouped.frameLength)
            guard self?.deliver(chunk, as: format, at: position, generation: current) == true else { return }
            position += AVAudioFramePosition(chunk.frameLength)
          }
        }
      } catch {}
      if grouped.frameLength > 0 { _ = self?.deliver(grouped, as: format, at: position, generation: current) }
    }
  }

  /// Hands `chunk` to the tap as a buffer of `format` unless the run it belongs to has ended;
  /// false once it has.
  private func deliver(
    _ chunk: AudioBuffer, as format: AVAudioFormat, at position: AVAudioFramePosition, generation run: Int
  ) -> Bool {
    lock.withLock {
      guard run == generation, running, let tap else { return false }
      let time = AVAudioTime(hostTime: AVAudioTime.now, sampleTime: position, atRate: chunk.format.sampleRate)
      renderTime = time
      tap.block(AVAudioPCMBuffer(AVAudioApplication.shared.heard(chunk), format: format), time)
      return true
    }
  }

  /// Stops recording; the tap is not called again afterwards. Called with the lock held.
  private func stopCapture() {
    generation += 1
    capture?.stop()
    capture = nil
    delivery = nil
  }
}
