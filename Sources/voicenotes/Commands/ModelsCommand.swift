import Foundation
import LanguageModels
import SpeechRecognition

/// `voicenotes models`: which speech models exist and which are installed.
struct ModelsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "models",
    abstract: "List the speech and language models and whether each is installed.",
    options: [.flag("json", help: "Print the list as JSON.")],
    subcommands: [ModelsInstallCommand.self])

  let json: Bool

  init(_ input: ParsedInput) throws(UsageError) {
    json = input.flag("json")
  }

  func run() async throws {
    let directory = ModelDirectory.current
    var rows: [(kind: String, name: String, status: String, size: Int64, summary: String, path: String)] = []
    for model in SpeechModel.all {
      rows.append(
        (
          "speech", model.name, AssetInventory.status(of: model, in: directory).description, model.approximateSize,
          model.summary, directory.file(for: model).path
        ))
    }
    for weights in LanguageModelWeights.all {
      let status =
        weights.isInstalled(in: directory)
        ? "installed" : weights.isBeingInstalled(in: directory) ? "downloading" : "supported"
      rows.append(("language", weights.name, status, weights.size, weights.summary, weights.file(in: directory).path))
    }
    if json {
      let objects = rows.map { row in
        ["kind": row.kind, "name": row.name, "status": row.status, "summary": row.summary, "path": row.path]
      }
      let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
      print(String(decoding: data, as: UTF8.self))
      return
    }
    print("NAME         KIND      STATUS       SIZE      DESCRIPTION")
    for row in rows {
      let size = String(format: "%.0f MB", Double(row.size) / 1_000_000)
      print(
        row.name.padding(toLength: 13, withPad: " ", startingAt: 0)
          + row.kind.padding(toLength: 10, withPad: " ", startingAt: 0)
          + row.status.padding(toLength: 13, withPad: " ", startingAt: 0)
          + size.padding(toLength: 10, withPad: " ", startingAt: 0) + row.summary)
    }
    print("\nModels folder: \(directory.url.path)")
  }
}
