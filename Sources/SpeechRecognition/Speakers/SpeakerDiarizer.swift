import AudioIO
import Foundation
import ModelSupport

/// Finds who spoke when in a recording, and what each voice sounds like: speaker turns with
/// times, the number of speakers (given, or found by itself) and a CAM++ voice embedding per
/// speaker, for recognising the voice in another recording.
///
/// The analysis runs in four steps, all on this machine: sherpa-onnx's offline diarization
/// (pyannote segmentation-3.0 over non-overlapping 10 s windows, a CAM++ embedding per window and
/// local speaker, clustering); its segments cut at the pauses the Silero voice-activity model
/// finds, because segments over non-overlapping windows run on across a change of speaker; one
/// embedding per piece and a second clustering of the pieces
/// (``SpeakerEmbedding/sameSpeakerThreshold``), which decides who is who and keeps apart people
/// whose voices the window-level clustering merged; then one embedding per speaker over all of
/// their turns. Every second of audio goes through CAM++ about three times (window, turn, speaker).
///
/// ```swift
/// let diarizer = try SpeakerDiarizer()
/// let result = try await diarizer.diarize(contentsOf: url)
/// for turn in result.turns { print("Speaker \(turn.speaker + 1): \(turn.start)–\(turn.end)") }
/// ```
///
/// It is not a ``SpeechModule``: a speech analyzer feeds its modules audio as it arrives, while
/// speaker clustering needs the whole recording (a voice is only "Speaker 2" against all the
/// others). Run it over the same samples as a transcriber and label the transcript with
/// ``SpeakerDiarization/speaker(from:to:)``.
public final class SpeakerDiarizer: SpeakerDiarizing {
  /// The model whose files were loaded.
  public let model: SpeakerModel
  /// The similarity at which turn clusters merge when no speaker count is given.
  public let clusteringThreshold: Double
  private let engine: SherpaOnnxDiarizer
  /// The Silero voice-activity model's file, when installed: its pauses cut sherpa-onnx's segments.
  private let voiceActivityModel: URL?

  /// Turns shorter than this many seconds get no embedding of their own; they take the speaker
  /// of the window-level cluster they were in.
  static let shortestEmbeddedTurn = 0.8
  /// The least audio, in seconds, ``embedding(of:)`` takes: CAM++ needs a few syllables.
  public static let shortestEmbeddedAudio = 0.5
  /// At most this many seconds of a speaker's turns go into the speaker's pooled embedding.
  static let longestPooledSpeech = 120.0
  /// Silences the voice-activity model finds that last at least this many seconds end a turn:
  /// sherpa-onnx's segments over non-overlapping windows run on across short pauses, and a change
  /// of speaker comes with a pause far more often than without one.
  static let shortestPause = 0.3

  /// Loads `model` from `directory`, running the networks on ``EngineConfiguration/threads``
  /// threads; throws when the model is not installed. The voice-activity model is taken from the
  /// same folder when it is there; without it the segments are not cut at pauses, and turns
  /// of different people with a short pause between them may be given one speaker.
  public init(
    model: SpeakerModel = .default, directory: ModelDirectory = .current,
    configuration: EngineConfiguration = .current,
    clusteringThreshold: Double = SpeakerEmbedding.sameSpeakerThreshold
  ) throws(SpeakerDiarizationError) {
    guard model.isInstalled(in: directory) else {
      throw .modelNotInstalled(model: model.name, folder: model.folder(in: directory).path)
    }
    self.model = model
    self.clusteringThreshold = clusteringThreshold
    let vad = directory.file(named: VoiceActivityDetector.modelFileName)
    voiceActivityModel = FileManager.default.fileExists(atPath: vad.path) ? vad : nil
    engine = try SherpaOnnxDiarizer(
      segmentation: model.segmentationFile(in: directory), embedding: model.embeddingFile(in: directory),
      threads: configuration.threads)
  }

  /// Finds the speaker turns in `samples` (16 kHz mono): `speakerCount` speakers when given,
  /// else as many as the voices show. `progress` gets the fraction done, 0 to 1.
  public func diarize(
    _ samples: [Float], speakerCount: Int? = nil, progress: @escaping @Sendable (Double) -> Void = { _ in }
  ) async throws -> SpeakerDiarization {
    if let speakerCount, speakerCount < 1 { throw SpeakerDiarizationError.invalidSpeakerCount(speakerCount) }
    let rate = Double(AudioFormat.speechAnalysis.sampleRate)
    let segments = try await engine.segments(samples, clusters: speakerCount ?? 0) { progress(0.8 * $0) }
    let pauses = try await self.pauses(in: samples, rate: rate)
    let turns = Self.cut(segments.filter { $0.end > $0.start }, at: pauses)
    var embedded: [(turn: Int, embedding: SpeakerEmbedding)] = []
    for (index, turn) in turns.enumerated() where turn.end - turn.start >= Self.shortestEmbeddedTurn {
      if let vector = await engine.embedding(of: Self.slice(samples, from: turn.start, to: turn.end, rate: rate)) {
        embedded.append((index, SpeakerEmbedding(values: vector)))
      }
      progress(0.8 + 0.15 * Double(index + 1) / Double(turns.count))
    }
    guard !embedded.isEmpty else {
      progress(1)
      return SpeakerDiarization(turns: [], speakers: [])
    }
    let clustering = SpeakerClustering(threshold: clusteringThreshold)
    let labels = clustering.labels(
      for: embedded.map(\.embedding), weights: embedded.map { turns[$0.turn].end - turns[$0.turn].start },
      count: speakerCount)
    let speakerOf = Self.assign(turns, embedded: embedded.map(\.turn), labels: labels)
    var speakerTurns: [SpeakerTurn] = []
    for (index, turn) in turns.enumerated() {
      let speaker = speakerOf[index]
      if let last = speakerTurns.last, last.speaker == speaker, turn.start <= last.end + 0.05 {
        speakerTurns[speakerTurns.count - 1].end = max(last.end, turn.end)
      } else {
        speakerTurns.append(SpeakerTurn(speaker: speaker, start: turn.start, end: turn.end))
      }
    }
    var speakers: [SpeakerDiarization.Speaker] = []
    for speaker in 0..<(labels.max() ?? 0) + 1 {
      let own = speakerTurns.filter { $0.speaker == speaker }
      var pooled: [Float] = []
      for turn in own where Double(pooled.count) < Self.longestPooledSpeech * rate {
        pooled += Self.slice(samples, from: turn.start, to: turn.end, rate: rate)
      }
      guard let vector = await engine.embedding(of: pooled) else {
        throw SpeakerDiarizationError.audioTooShort(seconds: Double(pooled.count) / rate)
      }
      speakers.append(
        SpeakerDiarization.Speaker(
          index: speaker, embedding: SpeakerEmbedding(values: vector), duration: own.reduce(0) { $0 + $1.duration }))
    }
    progress(1)
    return SpeakerDiarization(turns: speakerTurns, speakers: speakers)
  }

  /// Decodes the audio file at `url` (any format AudioIO reads, converted to 16 kHz mono) and
  /// diarizes it.
  public func diarize(
    contentsOf url: URL, speakerCount: Int? = nil, progress: @escaping @Sendable (Double) -> Void = { _ in }
  ) async throws -> SpeakerDiarization {
    let audio = try AudioFile(forReading: url).read(format: .speechAnalysis)
    return try await diarize(audio.samples, speakerCount: speakerCount, progress: progress)
  }

  /// The voice embedding of `samples` (16 kHz mono), for comparing a voice with remembered ones.
  public func embedding(of samples: [Float]) async throws -> SpeakerEmbedding {
    let seconds = Double(samples.count) / AudioFormat.speechAnalysis.sampleRate
    guard seconds >= Self.shortestEmbeddedAudio, let vector = await engine.embedding(of: samples) else {
      throw SpeakerDiarizationError.audioTooShort(seconds: seconds)
    }
    return SpeakerEmbedding(values: vector)
  }

  /// The voice embedding of the audio file at `url`.
  public func embedding(contentsOf url: URL) async throws -> SpeakerEmbedding {
    try await embedding(of: try AudioFile(forReading: url).read(format: .speechAnalysis).samples)
  }

  /// The silences of at least ``shortestPause`` seconds in `samples`, as (start, end) seconds, by
  /// the Silero voice-activity model; none when the model is not installed.
  func pauses(in samples: [Float], rate: Double) async throws -> [(start: Double, end: Double)] {
    guard let voiceActivityModel else { return [] }
    let detector = try VoiceActivityDetector(modelPath: voiceActivityModel.path)
    let probabilities = try await detector.speechProbabilities(samples)
    let window = Double(VoiceActivityDetector.windowSize) / rate
    var pauses: [(start: Double, end: Double)] = []
    var silentFrom: Int?
    for index in 0...probabilities.count {
      let speech = index == probabilities.count || probabilities[index] >= 0.5
      if !speech, silentFrom == nil { silentFrom = index }
      if speech, let from = silentFrom {
        if Double(index - from) * window >= Self.shortestPause {
          pauses.append((Double(from) * window, Double(index) * window))
        }
        silentFrom = nil
      }
    }
    return pauses
  }

  /// `segments` with the parts in `pauses` taken out, a segment becoming one piece per stretch of
  /// speech; a segment that lies wholly in a pause is kept as it is.
  static func cut(_ segments: [SherpaOnnxDiarizer.Segment], at pauses: [(start: Double, end: Double)])
    -> [SherpaOnnxDiarizer.Segment]
  {
    segments.flatMap { segment -> [SherpaOnnxDiarizer.Segment] in
      var pieces: [SherpaOnnxDiarizer.Segment] = []
      var start = segment.start
      for pause in pauses where pause.end > segment.start && pause.start < segment.end {
        if pause.start > start { pieces.append(.init(speaker: segment.speaker, start: start, end: pause.start)) }
        start = max(start, pause.end)
      }
      if segment.end > start { pieces.append(.init(speaker: segment.speaker, start: start, end: segment.end)) }
      return pieces.isEmpty ? [segment] : pieces
    }.sorted { $0.start < $1.start }
  }

  /// The samples between `start` and `end` seconds.
  static func slice(_ samples: [Float], from start: Double, to end: Double, rate: Double) -> [Float] {
    let first = max(0, min(samples.count, Int(start * rate)))
    let last = max(first, min(samples.count, Int(end * rate)))
    return Array(samples[first..<last])
  }

  /// The speaker of every turn: the clustered label for turns that have an embedding; for the
  /// others, the label most of the seconds of their window-level cluster got, else the label of
  /// the nearest embedded turn.
  static func assign(_ turns: [SherpaOnnxDiarizer.Segment], embedded: [Int], labels: [Int]) -> [Int] {
    var label: [Int: Int] = [:]
    for (turn, cluster) in zip(embedded, labels) { label[turn] = cluster }
    var votes: [Int: [Int: Double]] = [:]
    for (turn, cluster) in label {
      votes[turns[turn].speaker, default: [:]][cluster, default: 0] += turns[turn].end - turns[turn].start
    }
    return turns.indices.map { index in
      if let cluster = label[index] { return cluster }
      if let best = votes[turns[index].speaker]?.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }) {
        return best.key
      }
      let nearest = embedded.min {
        abs(turns[$0].start - turns[index].start) < abs(turns[$1].start - turns[index].start)
      }
      return nearest.flatMap { label[$0] } ?? 0
    }
  }
}
