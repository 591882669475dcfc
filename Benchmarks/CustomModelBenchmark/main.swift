// The custom-language-model benchmark (`make bench`): command accuracy and decode time with and
// without the seed's model in restrict mode, on commands spoken by espeak-ng in several voices;
// and the effect of a vocabulary in bias mode on general speech (LibriVox) and on names.
//
//   CustomModelBenchmark [--runs R]
import AudioIO
import Foundation
import SpeechRecognition
import VoiceNotes

let arguments = Array(CommandLine.arguments.dropFirst())
let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[safe: $0 + 1] ?? "") } ?? 1
do {
  try await CustomModelBenchmark(runs: runs).run()
} catch {
  FileHandle.standardError.write(
    Data("CustomModelBenchmark: \((error as? LocalizedError)?.errorDescription ?? "\(error)")\n".utf8))
  exit(1)
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
