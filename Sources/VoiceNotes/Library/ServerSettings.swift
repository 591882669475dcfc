import AudioIO
import Foundation
import ModelSupport

/// The servers a settings file lists (a library's `config.json`): several of each kind may share
/// the work, so importing a folder of recordings scales with the servers given.
///
/// ```json
/// {"transcriptionServers": [{"url": "http://127.0.0.1:9000", "model": "base"}],
///  "languageModelServers": [{"url": "http://10.0.0.5:8080"}, {"url": "http://10.0.0.6:8080"}]}
/// ```
public struct ServerSettings: Sendable, Equatable, Codable {
  /// Servers that transcribe (`/v1/audio/transcriptions`).
  public var transcriptionServers: [EngineConfiguration.ServerEndpoint]
  /// Servers that answer language-model requests (`/v1/chat/completions`).
  public var languageModelServers: [EngineConfiguration.ServerEndpoint]
  /// Whether notes' speakers are told apart; nil (left out) means yes, when the speakers model
  /// is installed.
  public var identifySpeakers: Bool?

  /// Settings with the given servers.
  public init(
    transcriptionServers: [EngineConfiguration.ServerEndpoint] = [],
    languageModelServers: [EngineConfiguration.ServerEndpoint] = []
  ) {
    self.transcriptionServers = transcriptionServers
    self.languageModelServers = languageModelServers
  }

  /// Reads settings; a kind left out has no servers.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    transcriptionServers =
      try container.decodeIfPresent([EngineConfiguration.ServerEndpoint].self, forKey: .transcriptionServers) ?? []
    languageModelServers =
      try container.decodeIfPresent([EngineConfiguration.ServerEndpoint].self, forKey: .languageModelServers) ?? []
    identifySpeakers = try container.decodeIfPresent(Bool.self, forKey: .identifySpeakers)
  }

  /// The settings in `file`; none when the file does not exist.
  public static func load(from file: URL) throws(ServerSettingsError) -> ServerSettings {
    guard FileManager.default.fileExists(atPath: file.path) else { return ServerSettings() }
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      throw .unreadable(path: file.path, reason: FileSystemFailure.reason(for: error))
    }
    do {
      return try JSONDecoder().decode(ServerSettings.self, from: data)
    } catch {
      throw .invalid(path: file.path, reason: Self.describe(error))
    }
  }

  /// Loads the settings in `file`, lets `change` edit them and saves the result, returning what
  /// `change` returns. A lock beside the file is held throughout, so that two processes changing
  /// the settings at once both keep their change; nothing is saved when `change` throws.
  public static func update<Result>(
    in file: URL, _ change: (inout ServerSettings) throws -> Result
  ) throws -> Result {
    let lock = try LibraryLock.held(
      at: file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).lock")
    ) { ServerSettingsError.unwritable(path: file.path, reason: $0) }
    defer { lock.release() }
    var settings = try load(from: file)
    let result = try change(&settings)
    try settings.save(to: file)
    return result
  }

  /// Writes the settings to `file` atomically (a partial file renamed into place), readable by the
  /// owner only, since it may hold API keys.
  public func save(to file: URL) throws(ServerSettingsError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let partial = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).partial")
    do {
      let data = try encoder.encode(self)
      guard FileManager.default.createFile(atPath: partial.path, contents: data, attributes: [.posixPermissions: 0o600])
      else { throw CocoaError(.fileWriteUnknown) }
      try FileReplacement.move(partial, over: file)
    } catch {
      try? FileManager.default.removeItem(at: partial)
      throw .unwritable(path: file.path, reason: FileSystemFailure.reason(for: error))
    }
  }

  private static func describe(_ error: any Error) -> String {
    let context: DecodingError.Context
    switch error as? DecodingError {
    case .keyNotFound(let key, _)?: return "\"\(key.stringValue)\" is missing"
    case .typeMismatch(_, let found)?, .dataCorrupted(let found)?, .valueNotFound(_, let found)?: context = found
    default: return "it is not valid JSON"
    }
    let path = context.codingPath.map(\.stringValue).joined(separator: ".")
    return path.isEmpty ? "it is not valid JSON" : "\(path): \(context.debugDescription)"
  }
}

/// Why a settings file could not be read or written.
public enum ServerSettingsError: Error, LocalizedError, Equatable {
  /// The file exists but cannot be read.
  case unreadable(path: String, reason: String)
  /// The file is not settings JSON.
  case invalid(path: String, reason: String)
  /// The file cannot be written.
  case unwritable(path: String, reason: String)

  /// One line that says what is wrong and where.
  public var errorDescription: String? {
    switch self {
    case .unreadable(let path, let reason): "cannot read the settings in \(path): \(reason)"
    case .invalid(let path, let reason): "the settings in \(path) are not valid (\(reason)); fix or delete the file"
    case .unwritable(let path, let reason): "cannot save the settings to \(path): \(reason)"
    }
  }
}
