import AudioIO
import Foundation

extension AttributeScopes {
  /// Attributes that speech results attach to runs of their text.
  public struct SpeechAttributes: AttributeScope {
    /// The span of audio a run of text was heard in.
    public let audioTimeRange: TimeRangeAttribute
    /// How sure the recognizer is of a run of text, from 0 to 1.
    public let transcriptionConfidence: ConfidenceAttribute
    /// Foundation's own attributes.
    public let foundation: FoundationAttributes

    /// The audio time range of a run of transcribed text.
    public enum TimeRangeAttribute: AttributedStringKey, Sendable {
      /// The attribute value type.
      public typealias Value = CMTimeRange
      /// The attribute name used in archives.
      public static let name = "audioTimeRange"
    }

    /// The recognizer's confidence in a run of transcribed text.
    public enum ConfidenceAttribute: AttributedStringKey, Sendable {
      /// The attribute value type.
      public typealias Value = Double
      /// The attribute name used in archives.
      public static let name = "transcriptionConfidence"
    }
  }

  /// The speech attribute scope, for `AttributedString` key paths such as `\.speech.audioTimeRange`.
  public var speech: SpeechAttributes.Type { SpeechAttributes.self }
}

extension AttributeDynamicLookup {
  /// Lets runs be read as `run.audioTimeRange` and `run.transcriptionConfidence`.
  public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<AttributeScopes.SpeechAttributes, T>) -> T {
    self[T.self]
  }
}
