import CommandLineParsing
import Foundation
import VoiceNotes

/// `voicenotes tasks`: action items from every note.
struct TasksCommand: ParsableCommand {
  static let all = Flag("all", short: "a", help: "Include completed items.")
  static let person = Option<String>(
    "person", short: "p", value: "name", help: "Only items that involve this person (partial names match).")

  static let configuration = CommandConfiguration(
    name: "tasks", abstract: "List action items from all notes, grouped by note.",
    options: [all, person, OutputOptions.json, LibraryOption.option],
    examples: [
      Example("voicenotes tasks", "Open action items, with the ids `done` takes."),
      Example("voicenotes tasks --person priya --all", "Every item that involves Priya, done or not."),
    ])

  let includeCompleted: Bool
  let person: String?
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    includeCompleted = input.isSet(Self.all)
    person = try input.value(Self.person)
    json = input.isSet(OutputOptions.json)
    library = try LibraryOption.url(from: input)
  }

  func run() async throws {
    let app = try await LibraryOption.openExisting(library)
    let groups = try await app.actionItems(includeCompleted: includeCompleted, person: person)
    if json {
      struct Group: Encodable {
        var noteID: String
        var title: String
        var items: [NoteActionItem]
      }
      try OutputOptions.printJSON(groups.map { Group(noteID: $0.noteID, title: $0.noteTitle, items: $0.items) })
      return
    }
    if groups.isEmpty {
      print(try await emptyMessage(app))
      return
    }
    for group in groups {
      print(
        TerminalStyle.apply(.bold, NoteFormatting.terminalText(group.noteTitle)) + "  ("
          + NoteFormatting.shortID(group.noteID) + ")")
      for item in group.items {
        let people = item.people.isEmpty ? "" : " (\(item.people.joined(separator: ", ")))"
        let box = item.isCompleted ? TerminalStyle.apply(.good, "[x]") : "[ ]"
        print("  \(box) \(NoteFormatting.shortID(item.id))  \(NoteFormatting.terminalText(item.task + people))")
      }
    }
  }

  /// What to say when nothing is listed: whose items there are none of, and what else there is.
  private func emptyMessage(_ app: Library) async throws -> String {
    let which = includeCompleted ? "action items" : "open action items"
    guard let person else { return "No \(which)." }
    let others = try await app.actionItems(includeCompleted: includeCompleted).reduce(0) { $0 + $1.items.count }
    let hint =
      others == 0
      ? "" : " (\(others) \(which) in all; `voicenotes tasks\(includeCompleted ? " --all" : "")` lists them)"
    return "No \(which) involve '\(person)'\(hint)."
  }
}
