import Foundation
import VoiceNotes

/// `voicenotes tasks`: action items from every note.
struct TasksCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "tasks", abstract: "List action items from all notes, grouped by note.",
    options: [
      .flag("all", help: "Include completed items."),
      .option("person", short: "p", value: "name", help: "Only items that involve this person (partial names match)."),
      .flag("json", help: "Print the items as JSON."), LibraryOption.spec,
    ])

  let includeCompleted: Bool
  let person: String?
  let json: Bool
  let library: URL

  init(_ input: ParsedInput) throws(UsageError) {
    includeCompleted = input.flag("all")
    person = input.value("person")
    json = input.flag("json")
    library = LibraryOption.url(from: input)
  }

  func run() async throws {
    let groups = try await LibraryOption.open(library).actionItems(includeCompleted: includeCompleted, person: person)
    if json {
      struct Group: Encodable {
        var noteID: String
        var title: String
        var items: [NoteActionItem]
      }
      print(try NoteFormatting.json(groups.map { Group(noteID: $0.noteID, title: $0.noteTitle, items: $0.items) }))
      return
    }
    if groups.isEmpty {
      print(includeCompleted ? "No action items." : "No open action items.")
      return
    }
    for group in groups {
      print("\(group.noteTitle)  (\(group.noteID.prefix(8)))")
      for item in group.items {
        let people = item.people.isEmpty ? "" : " (\(item.people.joined(separator: ", ")))"
        print("  [\(item.isCompleted ? "x" : " ")] \(item.id.prefix(8))  \(item.task)\(people)")
      }
    }
  }
}
