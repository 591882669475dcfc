import Foundation
import LanguageModels
import SpeechRecognition

/// One speech or language model and whether it is on this machine.
public struct ModelStatus: Sendable, Equatable, Codable {
  /// Whether a model is here.
  public enum State: String, Sendable, Codable {
    /// Known and installable, but not on this machine.
    case supported
    /// Being downloaded or converted.
    case downloading
    /// Ready to use.
    case installed
  }

  /// What the model is for.
  public enum Kind: String, Sendable, Codable {
    /// Turns speech into text.
    case speech
    /// Analyses transcripts.
    case language
    /// Tells a note's speakers apart and recognises their voices.
    case speakers
    /// Turns passages into vectors, for search by meaning and asking the notes.
    case embedding
  }

  /// The model's name, as the command line and the API spell it.
  public var name: String
  /// What the model is for.
  public var kind: Kind
  /// One line about it.
  public var summary: String
  /// Its size on disk, in bytes (approximate for speech models).
  public var size: Int64
  /// Whether it is here.
  public var state: State
  /// Whether the library uses it by default.
  public var isDefault: Bool
}
