import AudioIO
import CommandLineParsing
import Foundation
import ModelSupport
import VoiceNotes

/// `voicenotes config add-server`: share a library's transcription or analysis with a server.
struct ConfigAddServerCommand: ParsableCommand {
  static let model = Option<String>("model", value: "name", help: "The model to ask the server for.")
  static let apiKey = Option<String>("api-key", value: "key", help: "Sent as a bearer token with each request.")

  static let configuration = CommandConfiguration(
    name: "add-server", abstract: "Send a library's transcription or analysis to an OpenAI-compatible server.",
    arguments: [
      ArgumentSpec(name: "kind", help: "transcription or language-model."),
      ArgumentSpec(name: "url", help: "The server's address, such as http://127.0.0.1:8080."),
    ],
    options: [model, apiKey, LibraryOption.option],
    examples: [
      Example("voicenotes config add-server transcription http://127.0.0.1:9000", "Transcribe on whisper-server."),
      Example(
        "voicenotes config add-server language-model http://gpu:8000 --model qwen2.5-7b", "Analyse on vLLM."),
    ])

  let kind: ServerKind
  let server: EngineConfiguration.ServerEndpoint
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    kind = try ServerKind(input.positionals[0], in: input)
    server = EngineConfiguration.ServerEndpoint(
      url: try ServerKind.url(input.positionals[1], in: input), model: try input.value(Self.model),
      apiKey: try input.value(Self.apiKey))
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    // A library may be set up before its first note: the folder is made here if need be.
    do {
      try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    } catch {
      throw CommandFailure(
        message: "\(library.path): cannot make the library folder (\(FileSystemFailure.reason(for: error)))")
    }
    let file = LibraryConfiguration.settingsFile(in: library)
    try ServerSettings.update(in: file) { settings in
      kind.set(kind.servers(in: settings).filter { $0.url != server.url } + [server], in: &settings)
    }
    print("\(kind.rawValue) server added: \(ConfigCommand.describe(server))")
  }
}
