// The shape of Apple's sample "Bringing advanced speech-to-text capabilities to your app": a
// transcriber that streams converted microphone buffers into a SpeechAnalyzer, keeps finalized
// and volatile text as AttributedStrings with each word's audio time range, and makes sure the
// model is installed and the locale reserved. Our own code in that shape; only the imports
// differ (Speech -> SpeechRecognition, AVFoundation -> AudioIO).

import AudioIO
import Foundation
import SpeechRecognition

/// The recording's story: its text as it is transcribed.
final class Story {
  var title = "New recording"
  var text = AttributedString("")
  var url: URL?
  var isDone = false
}

enum TranscriptionError: Error {
  case couldNotDownloadModel
  case failedToSetupRecognitionStream
  case invalidAudioDataType
  case localeNotSupported
}

final class SpokenWordTranscriber: @unchecked Sendable {
  private var inputSequence: AsyncStream<AnalyzerInput>?
  private var inputBuilder: AsyncStream<AnalyzerInput>.Continuation?
  private var transcriber: SpeechTranscriber?
  private var analyzer: SpeechAnalyzer?
  private var recognizerTask: Task<(), Error>?

  var analyzerFormat: AVAudioFormat?
  var converter = BufferConverter()
  var downloadProgress: Progress?
  let story: Story

  var volatileTranscript: AttributedString = ""
  var finalizedTranscript: AttributedString = ""

  static let locale = Locale(components: .init(languageCode: .english, script: nil, languageRegion: .unitedStates))

  init(story: Story) {
    self.story = story
  }

  func setUpTranscriber() async throws {
    transcriber = SpeechTranscriber(
      locale: Self.locale, transcriptionOptions: [], reportingOptions: [.volatileResults],
      attributeOptions: [.audioTimeRange])
    guard let transcriber else { throw TranscriptionError.failedToSetupRecognitionStream }
    analyzer = SpeechAnalyzer(modules: [transcriber])
    try await ensureModel(transcriber: transcriber, locale: Self.locale)
    analyzerFormat = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber])
    (inputSequence, inputBuilder) = AsyncStream<AnalyzerInput>.makeStream()
    guard let inputSequence else { return }

    recognizerTask = Task {
      for try await case let result in transcriber.results {
        let text = result.text
        if result.isFinal {
          // Results here carry no trailing space, so finals are joined with one.
          if !finalizedTranscript.characters.isEmpty { finalizedTranscript += " " }
          finalizedTranscript += text
          volatileTranscript = ""
          story.text = finalizedTranscript
        } else {
          volatileTranscript = text
        }
      }
    }
    try await analyzer?.start(inputSequence: inputSequence)
  }

  func streamAudioToTranscriber(_ buffer: AVAudioPCMBuffer) async throws {
    guard let inputBuilder, let analyzerFormat else { throw TranscriptionError.invalidAudioDataType }
    let converted = try converter.convertBuffer(buffer, to: analyzerFormat)
    inputBuilder.yield(AnalyzerInput(buffer: converted))
  }

  func finishTranscribing() async throws {
    inputBuilder?.finish()
    try await analyzer?.finalizeAndFinishThroughEndOfInput()
    try await recognizerTask?.value
    recognizerTask = nil
  }

  // MARK: Model management

  func ensureModel(transcriber: SpeechTranscriber, locale: Locale) async throws {
    guard await supported(locale: locale) else { throw TranscriptionError.localeNotSupported }
    if await installed(locale: locale) {
      return
    }
    try await downloadIfNeeded(for: transcriber)
  }

  func supported(locale: Locale) async -> Bool {
    let supported = await SpeechTranscriber.supportedLocales
    return supported.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47))
  }

  func installed(locale: Locale) async -> Bool {
    let installed = await Set(SpeechTranscriber.installedLocales)
    return installed.map { $0.identifier(.bcp47) }.contains(locale.identifier(.bcp47))
  }

  func downloadIfNeeded(for module: SpeechTranscriber) async throws {
    if let downloader = try await AssetInventory.assetInstallationRequest(supporting: [module]) {
      downloadProgress = downloader.progress
      try await downloader.downloadAndInstall()
    }
  }

  func reserveLocale() async throws {
    try await AssetInventory.reserve(locale: Self.locale)
  }

  func releaseLocales() async {
    for locale in await AssetInventory.reservedLocales {
      await AssetInventory.release(reservedLocale: locale)
    }
  }
}
