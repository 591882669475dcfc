import AudioIO
import Foundation
import SpeechRecognition

/// The app's logic: starts and stops recording, clears the transcript, and keeps the model the
/// screen draws up to date as results arrive.
actor SpeechToTextViewModel {
  private(set) var model = TranscriptionModel()
  private let audioManager: AudioManager
  private let transcriptionManager: TranscriptionManager
  private let screen: TerminalScreen
  private let sourceName: String
  private var isStarting = false
  private var recording: Task<Void, Never>?

  /// A view model that records from `audioManager`, transcribes with `transcriptionManager` and
  /// draws on `screen`; `sourceName` says where the audio comes from.
  init(
    audioManager: AudioManager, transcriptionManager: TranscriptionManager, screen: TerminalScreen, sourceName: String
  ) {
    self.audioManager = audioManager
    self.transcriptionManager = transcriptionManager
    self.screen = screen
    self.sourceName = sourceName
  }

  /// Starts recording, or stops it.
  func toggleRecording() async {
    if model.isRecording {
      await stopRecording()
    } else {
      await startRecording()
    }
  }

  /// Forgets the text so far and the error.
  func clearTranscript() {
    model.finalizedText = ""
    model.currentText = ""
    model.errorMessage = nil
    render()
  }

  /// Starts the transcription and the audio; shows the error when either cannot start.
  func startRecording() async {
    guard recording == nil, !isStarting else { return }
    isStarting = true
    defer { isStarting = false }
    model.errorMessage = nil
    do {
      let results = try await transcriptionManager.startTranscription()
      let audio = try audioManager.startAudioStream(format: await transcriptionManager.audioFormat())
      model.isRecording = true
      recording = Task { await record(audio, showing: results) }
    } catch {
      await transcriptionManager.stopTranscription()
      show(error)
    }
    render()
  }

  /// Stops the audio and waits until the last words are final.
  func stopRecording() async {
    audioManager.stopAudioStream()
    await recording?.value
  }

  /// Waits until the recording ends (by ``stopRecording()`` or at the end of a file).
  func waitUntilStopped() async {
    await recording?.value
  }

  /// Draws the model, when the screen is a terminal.
  func render() {
    if screen.isInteractive { screen.draw(model, source: sourceName) }
  }

  /// Feeds the audio to the transcription until it ends, while another task shows the results.
  private func record(
    _ audio: AsyncThrowingStream<AudioBuffer, any Error>,
    showing results: AsyncThrowingStream<SpeechTranscriber.Result, any Error>
  ) async {
    let display = Task {
      do {
        for try await result in results { apply(result) }
      } catch {
        show(error)
      }
    }
    do {
      for try await buffer in audio { await transcriptionManager.processAudioBuffer(buffer) }
    } catch {
      show(error)
    }
    await transcriptionManager.stopTranscription()
    await display.value
    model.isRecording = false
    model.currentText = ""
    recording = nil
    render()
  }

  /// A final result joins the final text and replaces the volatile text; a volatile one
  /// replaces the volatile text.
  private func apply(_ result: SpeechTranscriber.Result) {
    let text = String(result.text.characters)
    if result.isFinal {
      if !text.isEmpty { model.finalizedText += text + " " }
      model.currentText = ""
      if !screen.isInteractive && !text.isEmpty { screen.printLine(text) }
    } else {
      model.currentText = text
    }
    render()
  }

  private func show(_ error: any Error) {
    let message = (error as? LocalizedError)?.errorDescription ?? "\(error)"
    model.errorMessage = message
    if !screen.isInteractive { screen.printError(message) }
    render()
  }
}
