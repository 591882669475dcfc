import CommandLineParsing
import Foundation
import LanguageModels
import SpeechRecognition
import VoiceNotes

/// `voicenotes models`: which speech models exist and which are installed.
struct ModelsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "models",
    abstract: "List the speech and language models and whether each is installed.",
    discussion: """
      Models are shared by every library; their folder is printed at the end, with the servers the
      library transcribes and analyses with, if any (`voicenotes config`).
      """,
    options: [OutputOptions.json, LibraryOption.option],
    subcommands: [ModelsInstallCommand.self],
    examples: [
      Example("voicenotes models", "Every model: kind, status, size and what it is for."),
      Example("voicenotes models install base-q8", "Install one more speech model."),
    ])

  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let directory = ModelDirectory.current
    var rows: [(kind: String, name: String, status: String, size: Int64, summary: String, path: String)] = []
    for model in SpeechModel.all {
      rows.append(
        (
          "speech", model.name, Self.status(AssetInventory.status(of: model, in: directory)), model.approximateSize,
          model.summary, directory.file(for: model).path
        ))
    }
    func status(installed: Bool, beingInstalled: Bool) -> String {
      installed ? "installed" : beingInstalled ? "downloading" : "not installed"
    }
    for weights in LanguageModelWeights.all {
      let status = status(
        installed: weights.isInstalled(in: directory), beingInstalled: weights.isBeingInstalled(in: directory))
      rows.append(("language", weights.name, status, weights.size, weights.summary, weights.file(in: directory).path))
    }
    for speakers in SpeakerModel.all {
      let status = status(
        installed: speakers.isInstalled(in: directory), beingInstalled: speakers.isBeingInstalled(in: directory))
      rows.append(
        (
          "speakers", speakers.name, status, speakers.approximateSize, speakers.summary,
          speakers.folder(in: directory).path
        ))
    }
    for embedding in EmbeddingModel.all {
      let status = status(
        installed: embedding.isInstalled(in: directory), beingInstalled: embedding.isBeingInstalled(in: directory))
      rows.append(
        (
          "embedding", embedding.name, status, embedding.approximateSize, embedding.summary,
          embedding.file(in: directory).path
        ))
    }
    let servers = try LibraryConfiguration.reading(folder: library)
    if json {
      let serverRows =
        servers.transcriptionServers.map { ("transcription server", $0) }
        + servers.languageModelServers.map { ("language model server", $0) }
      let objects =
        rows.map { row in
          ["kind": row.kind, "name": row.name, "status": row.status, "summary": row.summary, "path": row.path]
        }
        + serverRows.map { kind, server in
          [
            "kind": kind, "name": server.url.absoluteString, "status": "configured", "summary": server.model ?? "",
            "path": "",
          ]
        }
      let data = try JSONSerialization.data(
        withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      print(String(decoding: data, as: UTF8.self))
      return
    }
    print(TerminalStyle.apply(.bold, "NAME         KIND      STATUS         SIZE      DESCRIPTION"))
    for row in rows {
      let size = String(format: "%.0f MB", Double(row.size) / 1_000_000)
      print(
        row.name.padding(toLength: 13, withPad: " ", startingAt: 0)
          + row.kind.padding(toLength: 10, withPad: " ", startingAt: 0)
          + Self.styled(row.status.padding(toLength: 15, withPad: " ", startingAt: 0), row.status)
          + size.padding(toLength: 10, withPad: " ", startingAt: 0) + row.summary)
    }
    print("\nModels folder: \(directory.url.path)")
    if !servers.transcriptionServers.isEmpty || !servers.languageModelServers.isEmpty {
      print("")
      ConfigCommand.printServers("Transcription", servers.transcriptionServers, local: "this machine")
      ConfigCommand.printServers("Language model", servers.languageModelServers, local: "this machine")
    }
  }

  /// The words a person reads for an asset's status: "installed", "not installed", "downloading".
  static func status(_ status: AssetInventory.Status) -> String {
    switch status {
    case .installed: "installed"
    case .downloading: "downloading"
    case .supported, .unsupported: "not installed"
    }
  }

  private static func styled(_ padded: String, _ status: String) -> String {
    status == "installed" ? TerminalStyle.apply(.good, padded) : TerminalStyle.apply(.dim, padded)
  }
}
