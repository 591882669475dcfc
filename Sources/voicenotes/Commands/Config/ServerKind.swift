import CommandLineParsing
import Foundation
import ModelSupport
import VoiceNotes

/// The two kinds of server a library can use, as the `config` commands name them.
enum ServerKind: String, CaseIterable {
  /// `/v1/audio/transcriptions` servers.
  case transcription
  /// `/v1/chat/completions` servers.
  case languageModel = "language-model"

  /// The kind `text` names, or a usage error listing the kinds.
  init(_ text: String, in input: ParsedInput) throws(UsageError) {
    guard let kind = ServerKind(rawValue: text) else {
      throw input.error("unknown server kind '\(text)'; use transcription or language-model")
    }
    self = kind
  }

  /// The servers of this kind in `settings`.
  func servers(in settings: ServerSettings) -> [EngineConfiguration.ServerEndpoint] {
    switch self {
    case .transcription: settings.transcriptionServers
    case .languageModel: settings.languageModelServers
    }
  }

  /// Replaces the servers of this kind in `settings`.
  func set(_ servers: [EngineConfiguration.ServerEndpoint], in settings: inout ServerSettings) {
    switch self {
    case .transcription: settings.transcriptionServers = servers
    case .languageModel: settings.languageModelServers = servers
    }
  }

  /// A server's URL, checked: http or https with a host.
  static func url(_ text: String, in input: ParsedInput) throws(UsageError) -> URL {
    guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
    else { throw input.error("'\(text)' is not a server URL; give one such as http://127.0.0.1:8080") }
    return url
  }
}
