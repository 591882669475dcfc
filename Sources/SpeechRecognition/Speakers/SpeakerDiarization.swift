/// Who spoke when in one recording: its speaker turns and a voice embedding per speaker found.
public struct SpeakerDiarization: Codable, Sendable, Hashable {
  /// One distinct voice found in the recording.
  public struct Speaker: Codable, Sendable, Hashable {
    /// The speaker's index, from 0, as used by ``SpeakerTurn/speaker``.
    public var index: Int
    /// The voice, pooled over the speaker's turns.
    public var embedding: SpeakerEmbedding
    /// Seconds of speech in the speaker's turns.
    public var duration: Double

    /// Creates speaker `index` with its pooled `embedding` and seconds of speech.
    public init(index: Int, embedding: SpeakerEmbedding, duration: Double) {
      self.index = index
      self.embedding = embedding
      self.duration = duration
    }
  }

  /// The turns, in order of their start.
  public var turns: [SpeakerTurn]
  /// The speakers, by index.
  public var speakers: [Speaker]

  /// Creates a diarization from its turns (sorted here by start) and speakers.
  public init(turns: [SpeakerTurn], speakers: [Speaker]) {
    self.turns = turns.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    self.speakers = speakers
  }

  /// How many distinct voices were found.
  public var speakerCount: Int { speakers.count }

  /// The speaker who talks most between `start` and `end` seconds, or nil when no turn overlaps
  /// that span; used to label a transcript's segments and words.
  public func speaker(from start: Double, to end: Double) -> Int? {
    var seconds: [Int: Double] = [:]
    for turn in turns where turn.end > start && turn.start < end {
      seconds[turn.speaker, default: 0] += turn.overlap(from: start, to: end)
    }
    if let best = seconds.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }), best.value > 0 {
      return best.key
    }
    // A zero-length span (a word with no duration) takes the turn it falls in.
    return turns.first { $0.start <= start && start <= $0.end }?.speaker
  }
}
