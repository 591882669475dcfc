import CommandLineParsing
import Foundation
import ModelSupport
import VoiceNotes

/// `voicenotes config remove-server`: stop sending a library's work to a server.
struct ConfigRemoveServerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "remove-server", abstract: "Stop sending a library's transcription or analysis to a server.",
    arguments: [
      ArgumentSpec(name: "kind", help: "transcription or language-model."),
      ArgumentSpec(name: "url", help: "The server's address, as `voicenotes config` shows it."),
    ],
    options: [LibraryOption.option],
    examples: [Example("voicenotes config remove-server transcription http://127.0.0.1:9000", "Transcribe here again.")]
  )

  let kind: ServerKind
  let url: URL
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    kind = try ServerKind(input.positionals[0], in: input)
    url = try ServerKind.url(input.positionals[1], in: input)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    try LibraryOption.requireExisting(library)
    let file = LibraryConfiguration.settingsFile(in: library)
    try ServerSettings.update(in: file) { settings in
      let servers = kind.servers(in: settings)
      guard servers.contains(where: { $0.url == url }) else {
        let listed = servers.map(\.url.absoluteString).joined(separator: ", ")
        throw CommandFailure(
          message: "\(url.absoluteString) is not a \(kind.rawValue) server of this library"
            + (listed.isEmpty ? " (it has none)" : " (it has \(listed))"))
      }
      kind.set(servers.filter { $0.url != url }, in: &settings)
    }
    print("\(kind.rawValue) server removed: \(url.absoluteString)")
  }
}
