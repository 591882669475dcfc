import Foundation
import LanguageModels
import ModelSupport
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
  /// Servers that transcribe instead of the local engine; when several, notes are shared out.
  public var transcriptionServers: [EngineConfiguration.ServerEndpoint]
  /// Servers that analyse instead of the local language model; when several, notes are shared out.
  public var languageModelServers: [EngineConfiguration.ServerEndpoint]
  /// Whether notes' speakers are told apart (when the speakers model is installed); a library's
  /// settings file turns it off with `"identifySpeakers": false`.
  public var identifiesSpeakers: Bool

  /// A configuration for `folder` with the given models.
  public init(
    folder: URL, speechModel: SpeechModel = .default, liveModel: SpeechModel = .default,
    languageModel: LanguageModelWeights = .default, samplesFolder: URL? = nil,
    transcriptionServers: [EngineConfiguration.ServerEndpoint] = [],
    languageModelServers: [EngineConfiguration.ServerEndpoint] = [], identifiesSpeakers: Bool = true
  ) {
    self.folder = folder
    self.speechModel = speechModel
    self.liveModel = liveModel
    self.languageModel = languageModel
    self.samplesFolder = samplesFolder
    self.transcriptionServers = transcriptionServers
    self.languageModelServers = languageModelServers
    self.identifiesSpeakers = identifiesSpeakers
  }

  /// The configuration of the library in `folder`: its servers are the ones the environment names
  /// (``EngineConfiguration``) followed by those in the library's settings file.
  public static func reading(
    folder: URL, samplesFolder: URL? = nil, environment: EngineConfiguration = .current
  ) throws(ServerSettingsError) -> LibraryConfiguration {
    let settings = try ServerSettings.load(from: settingsFile(in: folder))
    return LibraryConfiguration(
      folder: folder, samplesFolder: samplesFolder,
      transcriptionServers: [environment.transcriptionServer].compactMap { $0 } + settings.transcriptionServers,
      languageModelServers: [environment.languageModelServer].compactMap { $0 } + settings.languageModelServers,
      identifiesSpeakers: settings.identifySpeakers ?? true)
  }

  /// The library's settings file (`config.json`), which lists its servers.
  public static func settingsFile(in folder: URL) -> URL { folder.appendingPathComponent("config.json") }

  /// The library named by `path` (a `--library` option), else `VOICENOTES_LIBRARY`, else
  /// ``NoteStore/defaultLibrary``.
  public static func folder(
    path: String?, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    if let path, !path.isEmpty { return URL(fileURLWithPath: path, isDirectory: true) }
    return EngineConfiguration(environment: environment).libraryFolder ?? NoteStore.defaultLibrary
  }
}
