// swift-format-ignore-file
// (The seed's code is kept exactly as its authors wrote it.)
// Seed 003 ("iOS Live Speech recognition with tailored language model"): the ModelGenerator
// command-line tool's code, as the post writes it, in a function so the test can run it; the
// post's "<path>" is the test's folder. Only the import changed: Speech -> SpeechRecognition.

import Foundation
import SpeechRecognition

func generateModel(path: String) async throws {
let data = SFCustomLanguageModelData(locale: Locale(identifier: "en_US"), identifier: "site.modista.speechRecognizer.SpeechRecognition", version: "1.0") {

    SFCustomLanguageModelData.PhraseCountsFromTemplates(classes: [
        "color": ["red", "blue", "green", "yellow"]
    ]) {
        SFCustomLanguageModelData.TemplatePhraseCountGenerator.Template(
            "Set background to <color>",
            count: 10_000
        )
    }
    SFCustomLanguageModelData.PhraseCountsFromTemplates(classes: [
        "element": ["fire", "sea"]
    ]) {
        SFCustomLanguageModelData.TemplatePhraseCountGenerator.Template(
            "I am <element>",
            count: 10_000
        )
    }
    
    SFCustomLanguageModelData.CustomPronunciation(grapheme: "Aw Aw R", phonemes: ["aU aU @r"])
    
    SFCustomLanguageModelData.PhraseCount(phrase: "See the sea", count: 100)
    
}

try await data.export(to: URL(filePath: "\(path)/MLData.bin"))
}
