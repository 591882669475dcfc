// Our side of the live-transcription benchmark (Benchmarks/live/bench.py runs it beside
// whisper.cpp's streaming example; see Benchmarks/live/README.md). Each command prints one JSON
// object.
import AudioIO
import Foundation
import SpeechRecognition

do {
  let arguments = try Arguments.parse(Array(CommandLine.arguments.dropFirst()))
  let model = try Arguments.speechModel(
    arguments.model ?? (arguments.command == "reference" ? arguments.referenceModel : "tiny.en"))
  var temporary: URL?
  defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
  let input: URL
  if let given = arguments.input {
    input = given
  } else {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "voicenotes-livebench-\(ProcessInfo.processInfo.processIdentifier)")
    temporary = folder
    input = try DefaultPassage.write(in: folder)
  }

  switch arguments.command {
  case "reference":
    log("reference: transcribing \(input.lastPathComponent) with \(model.name) (file path, word times)")
    try emit(try await ReferenceTranscript.transcribe(input, model: model), to: arguments.output)

  default:
    let reference: ReferenceTranscript
    if let file = arguments.reference {
      reference = try JSONDecoder.snakeCase.decode(ReferenceTranscript.self, from: Data(contentsOf: file))
    } else {
      let referenceModel = try Arguments.speechModel(arguments.referenceModel)
      log("reference: transcribing \(input.lastPathComponent) with \(referenceModel.name) (file path, word times)")
      reference = try await ReferenceTranscript.transcribe(input, model: referenceModel)
    }
    let audio = try AudioFile(forReading: input).read(format: .speechAnalysis)
    guard abs(reference.audioSeconds - audio.duration) < 0.05 else {
      throw BenchmarkError(
        "the reference is of \(reference.audio) (\(reference.audioSeconds) s), not of \(input.path) "
          + "(\(audio.duration) s): make one with `LiveBenchmark reference --input \(input.path)`")
    }
    let seconds = Double(arguments.bufferMilliseconds) / 1000
    log(
      "live: \(model.name), \(String(format: "%.1f", audio.duration)) s of audio in \(arguments.bufferMilliseconds) ms "
        + "buffers at real-time pace, \(engineThreads) threads")
    let run = try await LiveRun.run(audio, model: model, bufferSeconds: seconds, warmUp: arguments.warmUp)
    let report = LiveReport(
      run: run, reference: reference, model: model.name, input: input, audioSeconds: audio.duration,
      bufferSeconds: seconds, warmUp: arguments.warmUp)
    func figure(_ value: Double?) -> String { value.map { String(format: "%.2f s", $0) } ?? "-" }
    log(
      "live: first text \(figure(report.medians.first)), final after a pause \(figure(report.medians.finalAfterPause)) "
        + "(medians); CPU \(String(format: "%.2f", report.realTimeFactor)) s per s of audio; "
        + (report.keptUp ? "kept up" : "fell behind (a final came \(figure(report.maxFinalLagSeconds)) late)"))
    try emit(report, to: arguments.output)
  }
} catch {
  FileHandle.standardError.write(Data("LiveBenchmark: \(error)\n".utf8))
  exit(2)
}

extension JSONDecoder {
  /// A decoder for the snake_case JSON this program writes.
  static var snakeCase: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return decoder
  }
}
