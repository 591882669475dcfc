import Foundation
import LanguageModels
import SpeechRecognition

/// What a ``Library`` opens and with which models: read in one place, from the command line's
/// options and the environment, so no other code looks at either.
public struct LibraryConfiguration: Sendable, Equatable {
  /// The library folder.
  public var folder: URL
  /// The model that transcribes notes.
  public var speechModel: SpeechModel
  /// The model for live transcripts while recording.
  public var liveModel: SpeechModel
  /// The language model that analyses notes.
  public var languageModel: LanguageModelWeights
  /// Where the bundled sample recordings are, when this build has them.
  public var samplesFolder: URL?

  /// A configuration for `folder` with the given models.
  public init(
    folder: URL, speechModel: SpeechModel = .default, liveModel: SpeechModel = .default,
    languageModel: LanguageModelWeights = .default, samplesFolder: URL? = nil
  ) {
    self.folder = folder
    self.speechModel = speechModel
    self.liveModel = liveModel
    self.languageModel = languageModel
    self.samplesFolder = samplesFolder
  }

  /// The library named by `path` (a `--library` option), else `VOICENOTES_LIBRARY`, else
  /// ``NoteStore/defaultLibrary``.
  public static func folder(
    path: String?, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    if let path, !path.isEmpty { return URL(fileURLWithPath: path, isDirectory: true) }
    return EngineConfiguration(environment: environment).libraryFolder ?? NoteStore.defaultLibrary
  }
}
