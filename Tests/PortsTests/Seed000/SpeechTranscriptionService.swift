// swift-format-ignore-file
// (The seed's code is kept exactly as its authors wrote it.)
// Seed 000 (chapter 7, "Extending an App with Foundation Models"): the transcription service as
// the chapter writes it. Only the imports changed: AVFoundation -> AudioIO, Speech -> SpeechRecognition.

import AudioIO
import Foundation
import SpeechRecognition

enum SpeechTranscriptionError: LocalizedError {
  case unavailable
  case authorizationDenied
  case unsupportedLocale
  case emptyResult

  var errorDescription: String? {
    switch self {
    case .unavailable:
      "SpeechTranscriber is not available on this device."
    case .authorizationDenied:
      "Speech recognition access is needed to transcribe voice notes."
    case .unsupportedLocale:
      "SpeechTranscriber does not support the current language."
    case .emptyResult:
      "No speech was detected in this recording."
    }
  }
}

struct SpeechTranscriptionService {
  // 1
  func transcribeAudio(at url: URL) async throws -> String {
    // 2
    guard await requestSpeechAuthorization() else {
      throw SpeechTranscriptionError.authorizationDenied
    }
    
    // 3
    return try await transcribeWithSpeechTranscriber(at: url)
  }

  private func requestSpeechAuthorization() async -> Bool {
    await withCheckedContinuation { continuation in
      SFSpeechRecognizer.requestAuthorization { status in
        continuation.resume(returning: status == .authorized)
      }
    }
  }

  private func transcribeWithSpeechTranscriber(at url: URL) async throws -> String {
    guard SpeechTranscriber.isAvailable else {
      throw SpeechTranscriptionError.unavailable
    }

    guard let locale =
      await SpeechTranscriber.supportedLocale(equivalentTo: .current) else {
      throw SpeechTranscriptionError.unsupportedLocale
    }

    let transcriber = SpeechTranscriber(locale: locale, preset: .transcription)
    let modules: [any SpeechModule] = [transcriber]
    try await prepareAssets(for: modules)

    // 1
    let audioFile = try AVAudioFile(forReading: url)
    // 2
    let resultsTask = Task {
      // 3
      var finalText = ""

      // 4
      for try await result in transcriber.results {
        // 5
        guard result.isFinal else { continue }
        // 6
        let text = String(result.text.characters)
          .trimmingCharacters(in: .whitespacesAndNewlines)
        // 7
        guard !text.isEmpty else { continue }

        // 8
        finalText += " " + text
      }

      // 9
      return finalText
    }

    // 1
    let analyzer = SpeechAnalyzer(modules: modules)
    // 2
    try await analyzer.start(inputAudioFile: audioFile, finishAfterFile: true)
    // 3
    let transcript = try await resultsTask.value
      .trimmingCharacters(in: .whitespacesAndNewlines)

    // 4
    guard !transcript.isEmpty else {
      throw SpeechTranscriptionError.emptyResult
    }

    return transcript
  }

  private func prepareAssets(for modules: [any SpeechModule]) async throws {
    switch await AssetInventory.status(forModules: modules) {
    // 1
    case .installed:
      return
    // 2
    case .downloading:
      guard let request =
        try await AssetInventory.assetInstallationRequest(
          supporting: modules
        ) else {
        throw SpeechTranscriptionError.unavailable
      }
      try await request.downloadAndInstall()
    case .supported:
      guard let request =
        try await AssetInventory.assetInstallationRequest(
          supporting: modules
        ) else {
        throw SpeechTranscriptionError.unavailable
      }
      try await request.downloadAndInstall()
    // 3
    case .unsupported:
      throw SpeechTranscriptionError.unavailable
    // 4
    @unknown default:
      throw SpeechTranscriptionError.unavailable
    }
  }
}
