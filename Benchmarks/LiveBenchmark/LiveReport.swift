import Foundation

/// What `LiveBenchmark live` prints: latencies per word and their medians, what the run cost,
/// whether it kept up, and every result it saw.
struct LiveReport: Encodable {
  /// A final result may come at most this long after the end of its audio for the run to count
  /// as keeping up (a 0.6 s pause, the trailing pad and one decode fit well inside it); when the
  /// engine falls behind, finals queue and their lag grows past it.
  static let keepUpLimit = 3.0

  /// Latencies of one reference word, in seconds after the word ended (nil: never shown).
  struct Word: Encodable {
    var word: String
    var end: Double
    var pauseAfter: Bool
    var first: Double?
    var firstVolatile: Double?
    var final: Double?
    var settled: Double?
  }

  /// Medians over the words, in seconds after each word ended.
  struct Medians: Encodable {
    /// Word end to the first result of any kind containing it.
    var first: Double?
    /// Word end to the first volatile result containing it (words shown by a volatile result).
    var firstVolatile: Double?
    /// Word end to the final result containing it.
    var final: Double?
    /// For the last word before each pause: its end to the final result containing it.
    var finalAfterPause: Double?
    /// Word end to the moment from which every result covering it contained it.
    var settled: Double?
  }

  /// How many reference words each figure is over.
  struct Counts: Encodable {
    var referenceWords: Int
    var pauseWords: Int
    var first: Int
    var firstVolatile: Int
    var final: Int
    var finalAfterPause: Int
    var volatileResults: Int
    var finalResults: Int
  }

  var tool = "voicenotes"
  var model: String
  var input: String
  var audioSeconds: Double
  var bufferSeconds: Double
  var threads: Int
  var warmUp: Bool
  var referenceModel: String
  var loadSeconds: Double
  var wallSeconds: Double
  var cpuSeconds: Double
  /// CPU seconds per second of audio, from the first sample to the last final result.
  var realTimeFactor: Double
  var peakRssMib: Double
  var keptUp: Bool
  /// The longest a final result came after the end of its audio.
  var maxFinalLagSeconds: Double
  var drainSeconds: Double
  var feedLatenessSeconds: Double
  var medians: Medians
  var counts: Counts
  var words: [Word]
  /// The final results joined.
  var transcript: String
  var events: [LiveEvent]

  init(
    run: LiveRun, reference: ReferenceTranscript, model: String, input: URL, audioSeconds: Double,
    bufferSeconds: Double, warmUp: Bool
  ) {
    let timings = WordMatcher.timings(reference: reference.words, events: run.events)
    words = zip(reference.words, timings).map { word, timing in
      Word(
        word: word.word, end: word.end, pauseAfter: word.pauseAfter, first: timing.first.map { $0 - word.end },
        firstVolatile: timing.firstVolatile.map { $0 - word.end }, final: timing.final.map { $0 - word.end },
        settled: timing.settled.map { $0 - word.end })
    }
    let pauseWords = words.filter(\.pauseAfter)
    medians = Medians(
      first: median(words.compactMap(\.first)), firstVolatile: median(words.compactMap(\.firstVolatile)),
      final: median(words.compactMap(\.final)), finalAfterPause: median(pauseWords.compactMap(\.final)),
      settled: median(words.compactMap(\.settled)))
    counts = Counts(
      referenceWords: words.count, pauseWords: pauseWords.count, first: words.compactMap(\.first).count,
      firstVolatile: words.compactMap(\.firstVolatile).count, final: words.compactMap(\.final).count,
      finalAfterPause: pauseWords.compactMap(\.final).count,
      volatileResults: run.events.filter { !$0.isFinal }.count, finalResults: run.events.filter(\.isFinal).count)
    let finals = run.events.filter(\.isFinal)
    maxFinalLagSeconds = finals.map { $0.time - $0.end }.max() ?? 0
    keptUp = maxFinalLagSeconds <= Self.keepUpLimit
    transcript = finals.map(\.text).joined(separator: " ")
    events = run.events
    self.model = model
    self.input = input.path
    self.audioSeconds = audioSeconds
    self.bufferSeconds = bufferSeconds
    threads = engineThreads
    self.warmUp = warmUp
    referenceModel = reference.model
    loadSeconds = run.loadSeconds
    wallSeconds = run.wallSeconds
    cpuSeconds = run.cpuSeconds
    realTimeFactor = run.cpuSeconds / max(audioSeconds, 1e-9)
    peakRssMib = peakResidentMiB()
    drainSeconds = run.drainSeconds
    feedLatenessSeconds = run.feedLateness
  }
}
