import CommandLineParsing
import Foundation
import ModelSupport
import VoiceNotes

/// `voicenotes config`: the servers a library sends its transcription and analysis to.
struct ConfigCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "config", abstract: "Show or change the servers a library transcribes and analyses with.",
    discussion: """
      Without servers, notes are transcribed and analysed on this machine. With servers (any
      OpenAI-compatible server: llama.cpp's llama-server, whisper.cpp's whisper-server, vLLM, Ollama,
      speaches), each note goes to a free one, several notes at once, and a server that fails mid-note
      is replaced by another. The list is kept in the library's config.json; the servers named by
      VOICENOTES_TRANSCRIPTION_SERVER and VOICENOTES_LANGUAGE_MODEL_SERVER come first.
      """,
    options: [OutputOptions.json, LibraryOption.option],
    subcommands: [ConfigAddServerCommand.self, ConfigRemoveServerCommand.self],
    examples: [
      Example("voicenotes config", "The servers this library uses."),
      Example("voicenotes config add-server language-model http://10.0.0.5:8080", "Analyse on that server."),
    ])

  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let configuration = try LibraryConfiguration.reading(folder: library)
    if json {
      try OutputOptions.printJSON(
        ServerSettings(
          transcriptionServers: configuration.transcriptionServers.map(Self.masked),
          languageModelServers: configuration.languageModelServers.map(Self.masked)))
      return
    }
    print("Library: \(library.path)")
    Self.printServers("Transcription", configuration.transcriptionServers, local: "this machine (whisper.cpp)")
    Self.printServers("Language model", configuration.languageModelServers, local: "this machine (llama.cpp)")
  }

  /// Prints one kind's servers, or where the work happens without any.
  static func printServers(_ title: String, _ servers: [EngineConfiguration.ServerEndpoint], local: String) {
    guard !servers.isEmpty else {
      print("\(title): \(local)")
      return
    }
    print("\(title) servers:")
    for server in servers { print("  " + describe(server)) }
  }

  /// A server as one line: its URL, model and whether a key is set (never the key itself).
  static func describe(_ server: EngineConfiguration.ServerEndpoint) -> String {
    var line = server.url.absoluteString
    if let model = server.model { line += "  model \(model)" }
    if server.apiKey != nil { line += "  (API key set)" }
    return line
  }

  /// `server` with its key hidden, for printing.
  static func masked(_ server: EngineConfiguration.ServerEndpoint) -> EngineConfiguration.ServerEndpoint {
    var server = server
    if server.apiKey != nil { server.apiKey = "********" }
    return server
  }
}
