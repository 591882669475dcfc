import AudioIO
import Foundation
import LanguageModels
import SpeechRecognition
import VoiceNotes

/// The whole note pipeline (import, transcription with the default speech model, analysis with
/// each language model) on real recordings, timed per stage and reported per minute of audio.
struct PipelineBenchmark {
  let models: [String]
  let runs: Int
  let files: [URL]
  let cache: URL

  func run() async throws {
    let inputs = files.isEmpty ? try defaultInputs() : files
    var audioSeconds = 0.0
    for file in inputs { audioSeconds += try AudioFile(forReading: file).duration }
    let minutes = audioSeconds / 60
    print(
      String(
        format: "pipeline: %d recordings, %.1f s of audio, speech model %@, %d runs per language model",
        inputs.count, audioSeconds, SpeechModel.default.name as NSString, runs))
    var transcription: [Double] = []
    var rows: [(String, [Double], [Double])] = []
    for name in models {
      guard let weights = try? LanguageModelWeights.named(name) else { throw BenchmarkError("unknown model \(name)") }
      let model = SystemLanguageModel(weights: weights)
      guard model.isAvailable else {
        throw BenchmarkError("\(name) is not installed: run `voicenotes models install \(name)`")
      }
      var analysis: [Double] = []
      var total: [Double] = []
      for run in 1...runs {
        let times = try await once(inputs, model: model)
        transcription.append(times.transcription)
        analysis.append(times.analysis)
        total.append(times.transcription + times.analysis)
        FileManager.default.fputs(
          String(
            format: "pipeline: %@ run %d/%d: transcription %.1f s, analysis %.1f s", name as NSString, run, runs,
            times.transcription, times.analysis))
      }
      rows.append((name, analysis, total))
    }
    print("language model   transcription s/min   analysis s/min   whole pipeline s/min   (medians)")
    for (name, analysis, total) in rows {
      print(
        name.padding(toLength: 16, withPad: " ", startingAt: 0)
          + String(
            format: " %19.1f %16.1f %22.1f", Statistics.median(transcription) / minutes,
            Statistics.median(analysis) / minutes, Statistics.median(total) / minutes))
    }
  }

  /// Imports and processes every input in a fresh library; returns the seconds spent in each stage.
  private func once(_ inputs: [URL], model: SystemLanguageModel) async throws -> (
    transcription: Double, analysis: Double
  ) {
    let library = FileManager.default.temporaryDirectory.appendingPathComponent("voicenotes-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: library) }
    let store = try NoteStore(library: library)
    let pipeline = NotePipeline(store: store, analyzer: NoteAnalyzer(model: model))
    let clock = StageClock()
    for input in inputs {
      let note = try await pipeline.importAudio(from: input)
      clock.start(.transcribing)
      let done = try await pipeline.process(note) { clock.start($0.stage) }
      clock.stop()
      guard done.processing.stage == .done else { throw BenchmarkError("\(input.lastPathComponent) did not finish") }
    }
    return (clock.seconds[.transcribing] ?? 0, clock.seconds[.analyzing] ?? 0)
  }

  /// The bundled sample notes and a passage of the five LibriVox utterances with pauses between.
  private func defaultInputs() throws -> [URL] {
    let samples = URL(fileURLWithPath: "Samples")
    let bundled = try FileManager.default.contentsOfDirectory(at: samples, includingPropertiesForKeys: nil)
      .filter { ["m4a", "opus", "mp3"].contains($0.pathExtension) }.sorted { $0.path < $1.path }
    return bundled + [try librivoxPassage()]
  }

  private func librivoxPassage() throws -> URL {
    let folder = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/librivox")
    let passage = cache.appendingPathComponent("audio/librivox-passage.wav")
    if FileManager.default.fileExists(atPath: passage.path) { return passage }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".wav") }
      .sorted()
    guard !names.isEmpty else {
      throw BenchmarkError("\(folder.path) has no utterances: install pocketsphinx-testdata")
    }
    var samples: [Float] = []
    let pause = [Float](repeating: 0, count: 24_000)
    for name in names {
      samples += try AudioFile(forReading: folder.appendingPathComponent(name)).read().samples + pause
    }
    try FileManager.default.createDirectory(at: passage.deletingLastPathComponent(), withIntermediateDirectories: true)
    try WAVWriter.write(AudioBuffer(format: .speechAnalysis, samples: samples), to: passage, encoding: .int16)
    return passage
  }
}

/// Time spent in each pipeline stage, from the stage changes the progress reports.
final class StageClock: @unchecked Sendable {
  private let lock = NSLock()
  private var current: (ProcessingState.Stage, ContinuousClock.Instant)?
  private(set) var seconds: [ProcessingState.Stage: Double] = [:]

  func start(_ stage: ProcessingState.Stage) {
    lock.withLock {
      if current?.0 == stage { return }
      close()
      current = (stage, .now)
    }
  }

  func stop() { lock.withLock { close() } }

  private func close() {
    guard let (stage, began) = current else { return }
    let elapsed = ContinuousClock.now - began
    seconds[stage, default: 0] += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    current = nil
  }
}

/// A one-line benchmark failure.
struct BenchmarkError: LocalizedError {
  let message: String
  init(_ message: String) { self.message = message }
  var errorDescription: String? { message }
}
