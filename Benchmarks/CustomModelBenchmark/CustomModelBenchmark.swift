import AudioIO
import Foundation
import ModelSupport
import SpeechRecognition
import VoiceNotes

/// Runs the measurements and prints the tables.
struct CustomModelBenchmark {
  let runs: Int
  private let english = Locale(identifier: "en_US")
  private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("voicenotes-clm-bench")

  /// The seed's commands, and the voices and speeds (words a minute) that say them.
  static let commands = [
    "Set background to red", "Set background to blue", "Set background to green", "Set background to yellow",
    "I am fire", "I am sea", "See the sea",
  ]
  static let voices = [
    ("en-us", 175), ("en", 150), ("en-us+f3", 200), ("en+m7", 130), ("en+f2", 180), ("en-us+m3", 220),
  ]
  /// Sentences with names Whisper's base model misspells, and the names.
  static let names = [
    ("Meeting with Anneliese Hoffmann at noon.", "Anneliese Hoffmann"),
    ("Please send the report to Brianna Okafor by Friday.", "Brianna Okafor"),
    ("I spoke with Tobias Lindqvist this morning.", "Tobias Lindqvist"),
  ]

  func run() async throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await commandAccuracy()
    try await biasEffect()
  }

  // MARK: - Commands, restrict mode

  private func commandAccuracy() async throws {
    let model = try SpeechLanguageModel(compiling: commandData())
    var with = (right: 0, seconds: [Double]())
    var without = (right: 0, seconds: [Double]())
    var total = 0
    for _ in 0..<runs {
      for (voice, speed) in Self.voices {
        for command in Self.commands {
          let file = try speak(command, voice: voice, speed: speed)
          let restricted = try await recognize(file, model: model, mode: .restrict)
          let plain = try await recognize(file, model: nil, mode: .restrict)
          total += 1
          if normalized(restricted.text) == normalized(command) { with.right += 1 }
          if normalized(plain.text) == normalized(command) { without.right += 1 }
          with.seconds.append(restricted.seconds)
          without.seconds.append(plain.seconds)
        }
      }
      FileHandle.standardError.write(Data("commands: \(total) decodes each way\n".utf8))
    }
    print("\(Self.commands.count) seed commands x \(Self.voices.count) espeak-ng voices x \(runs) run(s), base model")
    print("model                      exact commands   median decode s")
    print(row("without the custom model", without.right, total, without.seconds))
    print(row("restrict (seed model)", with.right, total, with.seconds))
  }

  private func row(_ name: String, _ right: Int, _ total: Int, _ seconds: [Double]) -> String {
    name.padding(toLength: 26, withPad: " ", startingAt: 0)
      + String(format: " %3d/%-3d %5.1f%%   %15.2f", right, total, 100 * Double(right) / Double(total), median(seconds))
  }

  // MARK: - Vocabulary, bias mode

  private func biasEffect() async throws {
    let vocabulary = try SpeechLanguageModel(compiling: vocabularyData())
    let bias = SpeechLanguageModel.Mode.bias(strength: SpeechLanguageModel.Configuration.defaultWeight)
    var references: [String] = []
    var plain: [String] = []
    var biased: [String] = []
    var seconds = (plain: 0.0, biased: 0.0)
    for (audio, reference) in librivox() {
      let without = try await recognize(audio, model: nil, mode: bias)
      let with = try await recognize(audio, model: vocabulary, mode: bias)
      references.append(reference)
      plain.append(without.text)
      biased.append(with.text)
      seconds.plain += without.seconds
      seconds.biased += with.seconds
    }
    let reference = references.joined(separator: " ")
    let werWithout = WordErrorRate(reference: reference, hypothesis: plain.joined(separator: " ")).rate * 100
    let werWith = WordErrorRate(reference: reference, hypothesis: biased.joined(separator: " ")).rate * 100
    var namesRight = (without: 0, with: 0)
    for (sentence, name) in Self.names {
      let file = try speak(sentence, voice: "en-us", speed: 175)
      if try await recognize(file, model: nil, mode: bias).text.contains(name) { namesRight.without += 1 }
      if try await recognize(file, model: vocabulary, mode: bias).text.contains(name) { namesRight.with += 1 }
    }
    print("")
    print("vocabulary in bias mode (weight 0.5), base model")
    print("                           LibriVox WER   decode s   names spelled right")
    print(
      String(
        format: "without the vocabulary     %11.1f%% %10.1f   %d/%d", werWithout, seconds.plain, namesRight.without,
        Self.names.count))
    print(
      String(
        format: "with the vocabulary        %11.1f%% %10.1f   %d/%d", werWith, seconds.biased, namesRight.with,
        Self.names.count))
  }

  // MARK: - Helpers

  private func commandData() -> CustomLanguageModelData {
    CustomLanguageModelData(locale: english, identifier: "bench.commands", version: "1") {
      CustomLanguageModelData.PhraseCountsFromTemplates(classes: ["color": ["red", "blue", "green", "yellow"]]) {
        CustomLanguageModelData.TemplatePhraseCountGenerator.Template("Set background to <color>", count: 10_000)
      }
      CustomLanguageModelData.PhraseCountsFromTemplates(classes: ["element": ["fire", "sea"]]) {
        CustomLanguageModelData.TemplatePhraseCountGenerator.Template("I am <element>", count: 10_000)
      }
      CustomLanguageModelData.PhraseCount(phrase: "See the sea", count: 100)
    }
  }

  private func vocabularyData() -> CustomLanguageModelData {
    CustomLanguageModelData(locale: english, identifier: "bench.vocabulary", version: "1") {
      CustomLanguageModelData.PhraseCount(phrase: "Anneliese Hoffmann", count: 10)
      CustomLanguageModelData.PhraseCount(phrase: "Brianna Okafor", count: 10)
      CustomLanguageModelData.PhraseCount(phrase: "Tobias Lindqvist", count: 10)
      CustomLanguageModelData.PhraseCount(phrase: "Kubernetes", count: 10)
      CustomLanguageModelData.PhraseCount(phrase: "Grafana", count: 10)
    }
  }

  private func recognize(
    _ file: URL, model: SpeechLanguageModel?, mode: SpeechLanguageModel.Mode
  ) async throws -> (text: String, seconds: Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let transcriber = SpeechTranscriber(
      model: .base, locale: english, customLanguageModel: model, customLanguageModelMode: mode)
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    try await analyzer.start(inputAudioFile: try AudioFile(forReading: file), finishAfterFile: true)
    var text: [String] = []
    for try await result in transcriber.results where result.isFinal { text.append(String(result.text.characters)) }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (text.joined(separator: " ").trimmingCharacters(in: .whitespaces), seconds)
  }

  private func speak(_ text: String, voice: String, speed: Int) throws -> URL {
    let name = "\(voice)-\(speed)-\(text)".map { $0.isLetter || $0.isNumber ? $0 : "-" }
    let file = folder.appendingPathComponent(String(name) + ".wav")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["espeak-ng", "-v", voice, "-s", String(speed), "-w", file.path, text]
    try process.runWithDefaultSignals()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchmarkFailure("espeak-ng failed for \(text)") }
    return file
  }

  /// The five LibriVox utterances of pocketsphinx-testdata with their reference words.
  private func librivox() -> [(URL, String)] {
    let folder = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/librivox")
    guard let text = try? String(contentsOf: folder.appendingPathComponent("transcription"), encoding: .utf8) else {
      return []
    }
    return text.split(separator: "\n").compactMap { line in
      guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
      let id = String(line[line.index(after: open)..<close])
      let words = line[..<open].replacingOccurrences(of: "<s>", with: "").replacingOccurrences(of: "</s>", with: "")
      return (folder.appendingPathComponent("\(id).wav"), words.trimmingCharacters(in: .whitespaces))
    }
  }

  private func normalized(_ text: String) -> String {
    text.lowercased().split { !$0.isLetter }.joined(separator: " ")
  }

  private func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    return values.sorted()[values.count / 2]
  }
}

/// A one-line failure of the benchmark.
struct BenchmarkFailure: LocalizedError {
  let message: String
  init(_ message: String) { self.message = message }
  var errorDescription: String? { message }
}
