import Foundation
import SpeechRecognition

/// `voicenotes models`: which speech models exist and which are installed.
struct ModelsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "models",
    abstract: "List the speech models and whether each is installed.",
    options: [.flag("json", help: "Print the list as JSON.")],
    subcommands: [ModelsInstallCommand.self])

  let json: Bool

  init(_ input: ParsedInput) throws(UsageError) {
    json = input.flag("json")
  }

  func run() async throws {
    let directory = ModelDirectory.current
    let rows = SpeechModel.all.map { model in
      (model, AssetInventory.status(of: model, in: directory))
    }
    if json {
      let objects = rows.map { model, status in
        [
          "name": model.name, "status": status.description, "summary": model.summary,
          "path": directory.file(for: model).path,
        ]
      }
      let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
      print(String(decoding: data, as: UTF8.self))
      return
    }
    print("NAME      STATUS       SIZE     DESCRIPTION")
    for (model, status) in rows {
      let size = String(format: "%.0f MB", Double(model.approximateSize) / 1_000_000)
      print(
        model.name.padding(toLength: 10, withPad: " ", startingAt: 0)
          + status.description.padding(toLength: 13, withPad: " ", startingAt: 0)
          + size.padding(toLength: 9, withPad: " ", startingAt: 0) + model.summary)
    }
    print("\nModels folder: \(directory.url.path)")
  }
}
