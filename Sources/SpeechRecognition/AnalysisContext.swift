import Foundation
import Synchronization

/// What an analysis is about, given to ``SpeechAnalyzer/setContext(_:)``: words and names likely
/// to be said, and data of the app's own.
///
/// Contextual strings bias transcription toward those words, as a personal vocabulary does (the
/// `.general` tag and any other tag are used alike); they take effect from the next analysis
/// the transcriber starts. `userData` is kept for the app and not read by the analyzer.
public final class AnalysisContext: Sendable {
  /// A category of contextual strings.
  public struct ContextualStringsTag: RawRepresentable, Hashable, Sendable {
    /// The tag's name.
    public let rawValue: String
    /// A tag named `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A tag named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Words of any kind.
    public static let general = ContextualStringsTag("general")
  }

  /// A key for the app's own data.
  public struct UserDataTag: RawRepresentable, Hashable, Sendable {
    /// The tag's name.
    public let rawValue: String
    /// A tag named `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A tag named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
  }

  private let strings = Mutex<[ContextualStringsTag: [String]]>([:])
  private let data = Mutex<[UserDataTag: any Sendable]>([:])

  /// An empty context.
  public init() {}

  /// Words and phrases likely to be said, by tag.
  public var contextualStrings: [ContextualStringsTag: [String]] {
    get { strings.withLock { $0 } }
    set { strings.withLock { $0 = newValue } }
  }

  /// The app's own data, by tag.
  public var userData: [UserDataTag: any Sendable] {
    get { data.withLock { $0 } }
    set { data.withLock { $0 = newValue } }
  }
}
