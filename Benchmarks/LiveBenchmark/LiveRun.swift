import AudioIO
import Foundation
import ModelSupport
import SpeechRecognition

/// One live transcription of a file fed at real-time pace, and what it cost.
struct LiveRun: Sendable {
  /// Everything the transcriber published, with arrival times.
  var events: [LiveEvent]
  /// Seconds to load the model, and warm it up if asked, before the clock starts.
  var loadSeconds: Double
  /// Seconds from the first sample to the last final result.
  var wallSeconds: Double
  /// CPU seconds the process used from the first sample to the last final result.
  var cpuSeconds: Double
  /// The most a buffer went over later than due, in seconds.
  var feedLateness: Double
  /// Seconds from the end of the input to the last final result.
  var drainSeconds: Double

  /// Transcribes `audio` live with `model`, fed in buffers of `bufferSeconds` at real-time pace.
  ///
  /// The model is loaded first, and with `warmUp` decodes the first seconds of the audio once, as
  /// an app would have done before its user speaks; then the clock starts with the first sample.
  static func run(
    _ audio: AudioBuffer, model: SpeechModel, bufferSeconds: Double, warmUp: Bool
  ) async throws -> LiveRun {
    let english = Locale(identifier: "en_US")
    let loadStart = ContinuousClock.now
    if warmUp {
      let transcriber = SpeechTranscriber(model: model, locale: english, reportingOptions: [.volatileResults])
      let analyzer = SpeechAnalyzer(modules: [transcriber])
      let (inputs, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
      try await analyzer.start(inputSequence: inputs)
      continuation.yield(AnalyzerInput(buffer: audio.frames(0..<Int(6 * audio.format.sampleRate))))
      continuation.finish()
      try await analyzer.finalizeAndFinishThroughEndOfInput()
      for try await _ in transcriber.results {}
    }

    let transcriber = SpeechTranscriber(model: model, locale: english, reportingOptions: [.volatileResults])
    let analyzer = SpeechAnalyzer(modules: [transcriber])
    let feed = RealTimeFeed(audio, seconds: bufferSeconds)
    let collector = Task {
      var arrivals: [(SpeechTranscriber.Result, ContinuousClock.Instant)] = []
      for try await result in transcriber.results { arrivals.append((result, .now)) }
      return arrivals
    }
    try await analyzer.start(inputSequence: feed.inputs)
    let loadSeconds = (ContinuousClock.now - loadStart).seconds

    let processorStart = processorSeconds()
    let start = ContinuousClock.now
    let lateness = await feed.play(from: start).value
    let inputEnd = ContinuousClock.now
    try await analyzer.finalizeAndFinishThroughEndOfInput()
    let arrivals = try await collector.value
    let end = ContinuousClock.now
    let cpu = processorSeconds() - processorStart

    let events = arrivals.map { result, instant in
      LiveEvent(
        time: (instant - start).seconds, isFinal: result.isFinal, start: result.range.start.seconds,
        end: result.range.end.seconds, text: String(result.text.characters))
    }
    let lastFinal = arrivals.last { $0.0.isFinal }?.1 ?? end
    return LiveRun(
      events: events, loadSeconds: loadSeconds, wallSeconds: (end - start).seconds, cpuSeconds: cpu,
      feedLateness: lateness, drainSeconds: max(0, (lastFinal - inputEnd).seconds))
  }
}

/// CPU seconds this process has used so far (user and system).
func processorSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
    + Double(usage.ru_stime.tv_usec) / 1e6
}

/// The most memory this process has held at once (peak resident set), in MiB.
func peakResidentMiB() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_maxrss) / 1024
}

/// The threads whisper.cpp runs with, as the library chooses them.
var engineThreads: Int { EngineHost.threadCount }
