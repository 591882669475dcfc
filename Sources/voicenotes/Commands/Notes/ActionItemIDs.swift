import CommandLineParsing
import Foundation
import VoiceNotes

/// What `done` and `undone` share: tick or untick several action items, saying what changed.
enum ActionItemIDs {
  /// The `<id> ...` argument.
  static let argument = ArgumentSpec(
    name: "id", help: "Action item ids (as `tasks` shows them), or unique prefixes.", isRepeating: true)

  /// Sets each item to `completed`; prints one line per item (or JSON) and fails with status 1
  /// after the others when an id is unknown.
  static func set(_ completed: Bool, ids: [String], json: Bool, library: URL) async throws {
    let app = try await LibraryOption.openExisting(library)
    struct Changed: Encodable {
      var id: String
      var noteID: String
      var task: String
      var isCompleted: Bool
      var changed: Bool
    }
    var results: [Changed] = []
    var failures = 0
    for id in ids {
      do {
        let (note, item, changed) = try await app.setCompleted(completed, actionItem: id)
        results.append(
          Changed(id: item.id, noteID: note.id, task: item.task, isCompleted: item.isCompleted, changed: changed))
        guard !json else { continue }
        let box = item.isCompleted ? "[x]" : "[ ]"
        let task = NoteFormatting.terminalText(item.task)
        let title = NoteFormatting.terminalText(note.title)
        print(
          changed
            ? "\(box) \(task)  (\(title))"
            : "\(box) \(task)  (\(title)): already \(completed ? "done" : "open"), nothing changed")
      } catch {
        failures += 1
        CommandRunner.report(FailureText.describe(error))
      }
    }
    if json { try OutputOptions.printJSON(results) }
    if failures > 0 {
      throw CommandFailure(message: "\(failures) of \(ids.count) items failed", alreadyReported: true)
    }
  }
}
