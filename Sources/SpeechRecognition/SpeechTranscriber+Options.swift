extension SpeechTranscriber {
  /// Ways to shape the transcription text. Accepted for source compatibility with Apple's API.
  public enum TranscriptionOption: Hashable, Sendable {
    /// Replace certain words with asterisks.
    case etiquetteReplacements
    /// Write emoji for spoken emoji names.
    case emoji
  }

  /// Which results the transcriber publishes.
  public enum ReportingOption: Hashable, Sendable {
    /// With live input, publish tentative results for the speech so far (about every half second
    /// while someone speaks), each replacing the last, until the final result for their range.
    case volatileResults
    /// Include alternative transcriptions (accepted; Whisper reports one reading).
    case alternativeTranscriptions
    /// Favour latency over accuracy (accepted; live decoding is already tuned for latency).
    case fastResults
    /// With live input, finalise after a pause of 0.4 s instead of 0.6 s.
    case frequentFinalization
  }

  /// Attributes attached to runs of result text.
  public enum ResultAttributeOption: Hashable, Sendable {
    /// The audio time range of each word (`run.audioTimeRange`).
    case audioTimeRange
    /// The recognizer's confidence in each word (`run.transcriptionConfidence`).
    case transcriptionConfidence
  }

  /// A named combination of options for common uses.
  public struct Preset: Hashable, Sendable {
    /// The transcription options of the preset.
    public var transcriptionOptions: Set<TranscriptionOption>
    /// The reporting options of the preset.
    public var reportingOptions: Set<ReportingOption>
    /// The attribute options of the preset.
    public var attributeOptions: Set<ResultAttributeOption>

    /// Creates a preset from its three option sets.
    public init(
      transcriptionOptions: Set<TranscriptionOption>, reportingOptions: Set<ReportingOption>,
      attributeOptions: Set<ResultAttributeOption>
    ) {
      self.transcriptionOptions = transcriptionOptions
      self.reportingOptions = reportingOptions
      self.attributeOptions = attributeOptions
    }

    /// Accurate final text, nothing else.
    public static let transcription = Preset(transcriptionOptions: [], reportingOptions: [], attributeOptions: [])
    /// Final text with alternatives.
    public static let transcriptionWithAlternatives = Preset(
      transcriptionOptions: [], reportingOptions: [.alternativeTranscriptions], attributeOptions: [])
    /// Final text with alternatives and the audio time range of each word.
    public static let timeIndexedTranscriptionWithAlternatives = Preset(
      transcriptionOptions: [], reportingOptions: [.alternativeTranscriptions], attributeOptions: [.audioTimeRange])
    /// Volatile results as audio arrives, then final ones: for live transcription.
    public static let progressiveTranscription = Preset(
      transcriptionOptions: [], reportingOptions: [.volatileResults, .fastResults], attributeOptions: [])
    /// Progressive transcription with the audio time range of each word.
    public static let timeIndexedProgressiveTranscription = Preset(
      transcriptionOptions: [], reportingOptions: [.volatileResults, .fastResults], attributeOptions: [.audioTimeRange])
  }
}
