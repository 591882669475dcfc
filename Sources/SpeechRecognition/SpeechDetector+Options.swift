extension SpeechDetector {
  /// How readily the detector calls a sound speech.
  public enum SensitivityLevel: Sendable, Hashable, CaseIterable {
    /// Only clear speech counts: fewer false alarms, some soft speech missed.
    case low
    /// A balance suited to most recordings.
    case medium
    /// Soft or distant speech counts too, and so may some noise.
    case high

    /// The speech probability at or above which a 32 ms window counts as speech.
    var threshold: Float {
      switch self {
      case .low: 0.7
      case .medium: 0.5
      case .high: 0.3
      }
    }
  }

  /// Settings for speech detection.
  public struct DetectionOptions: Sendable, Hashable {
    /// How readily a sound counts as speech.
    public var sensitivityLevel: SensitivityLevel

    /// Creates options with a sensitivity level.
    public init(sensitivityLevel: SensitivityLevel) {
      self.sensitivityLevel = sensitivityLevel
    }
  }
}
