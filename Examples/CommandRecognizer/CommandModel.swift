import Foundation
import SpeechRecognition

/// The seed's custom language model: two templates, a phrase and a pronunciation, exported and
/// prepared once into a cache folder (preparing again is skipped while the data is unchanged).
enum CommandModel {
  /// The colour and element classes and the templates that use them.
  static func data() -> CustomLanguageModelData {
    CustomLanguageModelData(
      locale: Locale(identifier: "en_US"), identifier: "voicenotes.examples.CommandRecognizer", version: "1.0"
    ) {
      CustomLanguageModelData.PhraseCountsFromTemplates(classes: ["color": ["red", "blue", "green", "yellow"]]) {
        CustomLanguageModelData.TemplatePhraseCountGenerator.Template("Set background to <color>", count: 10_000)
      }
      CustomLanguageModelData.PhraseCountsFromTemplates(classes: ["element": ["fire", "sea"]]) {
        CustomLanguageModelData.TemplatePhraseCountGenerator.Template("I am <element>", count: 10_000)
      }
      CustomLanguageModelData.CustomPronunciation(grapheme: "Aw Aw R", phonemes: ["aU aU @r"])
      CustomLanguageModelData.PhraseCount(phrase: "See the sea", count: 100)
    }
  }

  /// Exports and prepares the model; returns the configuration a transcriber takes. Weight 1
  /// restricts recognition to the commands.
  static func prepare() async throws -> SpeechLanguageModel.Configuration {
    let folder = FileManager.default.homeDirectoryForCurrentUser
      .appendingPathComponent(".cache/voicenotes/command-recognizer", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let exported = folder.appendingPathComponent("commands.json")
    try await data().export(to: exported)
    let configuration = SpeechLanguageModel.Configuration(
      languageModel: folder.appendingPathComponent("commands.lm.json"), vocabulary: nil, weight: 1)
    try await SpeechLanguageModel.prepareCustomLanguageModel(
      for: exported, clientIdentifier: "voicenotes.examples.CommandRecognizer", configuration: configuration)
    return configuration
  }
}
