extension DictationTranscriber {
  /// What the speech is like, to tune recognition.
  public struct ContentHint: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
      case shortForm, farField, atypicalSpeech
      case customizedLanguage(SpeechLanguageModel.Configuration)
    }
    let kind: Kind

    /// Short utterances, such as a search or a message (kept; Whisper handles any length alike).
    public static let shortForm = ContentHint(kind: .shortForm)
    /// A speaker far from the microphone (kept; does not change the result).
    public static let farField = ContentHint(kind: .farField)
    /// Speech that is atypical, for instance impaired (kept; does not change the result).
    public static let atypicalSpeech = ContentHint(kind: .atypicalSpeech)

    /// Recognition follows the custom language model prepared into `modelConfiguration`: restricted
    /// to its phrases when its weight is 1, biased toward them otherwise.
    public static func customizedLanguage(modelConfiguration: SpeechLanguageModel.Configuration) -> ContentHint {
      ContentHint(kind: .customizedLanguage(modelConfiguration))
    }
  }

  /// Ways to shape the text.
  public enum TranscriptionOption: Hashable, Sendable {
    /// Punctuate the text (without it, Whisper's punctuation is removed).
    case punctuation
    /// Write emoji for spoken emoji names (accepted; not done).
    case emoji
    /// Replace certain words with asterisks (accepted; not done).
    case etiquetteReplacements
  }

  /// Which results are published.
  public enum ReportingOption: Hashable, Sendable {
    /// With live input, tentative results while someone speaks.
    case volatileResults
    /// Alternative readings (accepted; Whisper reports one).
    case alternativeTranscriptions
    /// With live input, finalise after shorter pauses.
    case frequentFinalization
  }

  /// Attributes attached to runs of result text.
  public enum ResultAttributeOption: Hashable, Sendable {
    /// Each word's audio time range.
    case audioTimeRange
    /// Each word's confidence.
    case transcriptionConfidence
  }

  /// A named combination of hints and options, as Apple's presets for dictation.
  public struct Preset: Hashable, Sendable {
    /// The content hints.
    public var contentHints: Set<ContentHint>
    /// The transcription options.
    public var transcriptionOptions: Set<TranscriptionOption>
    /// The reporting options.
    public var reportingOptions: Set<ReportingOption>
    /// The attribute options.
    public var attributeOptions: Set<ResultAttributeOption>

    /// A preset from its parts.
    public init(
      contentHints: Set<ContentHint>, transcriptionOptions: Set<TranscriptionOption>,
      reportingOptions: Set<ReportingOption>, attributeOptions: Set<ResultAttributeOption>
    ) {
      self.contentHints = contentHints
      self.transcriptionOptions = transcriptionOptions
      self.reportingOptions = reportingOptions
      self.attributeOptions = attributeOptions
    }

    /// A short phrase, unpunctuated, such as a search.
    public static let phrase = Preset(
      contentHints: [.shortForm], transcriptionOptions: [], reportingOptions: [], attributeOptions: [])
    /// A short dictated message.
    public static let shortDictation = Preset(
      contentHints: [.shortForm], transcriptionOptions: [.punctuation], reportingOptions: [], attributeOptions: [])
    /// A short dictated message, with tentative results as it is spoken.
    public static let progressiveShortDictation = Preset(
      contentHints: [.shortForm], transcriptionOptions: [.punctuation], reportingOptions: [.volatileResults],
      attributeOptions: [])
    /// Long dictation.
    public static let longDictation = Preset(
      contentHints: [], transcriptionOptions: [.punctuation], reportingOptions: [], attributeOptions: [])
    /// Long dictation, with tentative results as it is spoken.
    public static let progressiveLongDictation = Preset(
      contentHints: [], transcriptionOptions: [.punctuation], reportingOptions: [.volatileResults],
      attributeOptions: [])
    /// Long dictation with each word's time range.
    public static let timeIndexedLongDictation = Preset(
      contentHints: [], transcriptionOptions: [.punctuation], reportingOptions: [], attributeOptions: [.audioTimeRange])
  }
}
