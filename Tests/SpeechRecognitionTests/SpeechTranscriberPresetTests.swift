import Foundation
import SpeechRecognition
import Testing

/// The transcriber's presets, including the names the first Speech 26 betas used.
@Suite("SpeechTranscriber's presets")
struct SpeechTranscriberPresetTests {
  @Test("the release presets carry the options Apple's table lists")
  func releasePresets() {
    #expect(SpeechTranscriber.Preset.transcription.reportingOptions.isEmpty)
    #expect(SpeechTranscriber.Preset.progressiveTranscription.reportingOptions == [.volatileResults, .fastResults])
    #expect(SpeechTranscriber.Preset.timeIndexedProgressiveTranscription.attributeOptions == [.audioTimeRange])
  }

  @Test("the beta preset names still compile, with the options the betas documented")
  func betaPresets() {
    // Called through a protocol, so the deliberate use of deprecated names does not warn.
    let beta = (BetaSpellings() as any BetaSpellingsCode).presets()
    #expect(beta.offline.reportingOptions.isEmpty && beta.offline.attributeOptions.isEmpty)
    #expect(beta.live.reportingOptions == [.volatileResults, .frequentFinalization])
    #expect(beta.live.attributeOptions.isEmpty)
    #expect(beta.offlineWithAlternatives == .transcriptionWithAlternatives)
    #expect(beta.timeIndexedWithAlternatives == .timeIndexedTranscriptionWithAlternatives)
    #expect(beta.captions.reportingOptions == [.frequentFinalization], "captions had no volatile results")
    #expect(beta.captions.attributeOptions == [.audioTimeRange] && beta.captions.transcriptionOptions.isEmpty)
    #expect(beta.maximumLocales == AssetInventory.maximumReservedLocales)
  }
}

/// What the beta spellings produce.
private struct BetaPresetValues {
  var offline: SpeechTranscriber
  var live: SpeechTranscriber
  var offlineWithAlternatives: SpeechTranscriber.Preset
  var timeIndexedWithAlternatives: SpeechTranscriber.Preset
  var captions: SpeechTranscriber.Preset
  var maximumLocales: Int
}

/// Code that uses the beta names, reached through a protocol requirement.
private protocol BetaSpellingsCode {
  func presets() -> BetaPresetValues
}

/// The beta names as the WWDC25 session and tutorials written during the betas spell them.
private struct BetaSpellings: BetaSpellingsCode {
  @available(*, deprecated, message: "uses the beta preset names on purpose")
  func presets() -> BetaPresetValues {
    BetaPresetValues(
      offline: SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .offlineTranscription),
      live: SpeechTranscriber(locale: Locale(identifier: "en_US"), preset: .progressiveLiveTranscription),
      offlineWithAlternatives: .offlineTranscriptionWithAlternatives,
      timeIndexedWithAlternatives: .timeIndexedOfflineTranscriptionWithAlternatives,
      captions: .timeIndexedLiveCaptioning, maximumLocales: AssetInventory.maximumAllocatedLocales)
  }
}
